/* Helpers for tests that drive a project's self-service flows over HTTP: its mail, browser flows and their CSRF tokens. */
import type { AxiosRequestConfig } from 'axios';
import { CookieJar, frontendApi } from './users';

/** A message of the local stack's developer mailbox, as `/local/mailbox/messages` lists it. */
export interface MailboxMessage {
  id: string;
  recipient: string;
  subject: string;
  body: string;
  template_type: string;
}

/** The newest message mailed to `to` by project `slug`'s tenant, and the 6-digit code in it. */
export async function latestMailedCode(stackUrl: string, to: string, slug: string): Promise<{ message: MailboxMessage; code: string }> {
  const res = await fetch(`${stackUrl}/local/mailbox/messages?${new URLSearchParams({ to, project: slug })}`);
  const [message] = (await res.json()) as MailboxMessage[];
  const code = message?.body.match(/\b(\d{6})\b/)?.[1];
  if (!message || !code) throw new Error(`no code mailed to ${to}`);
  return { message, code };
}

/** Answer any status without throwing, so tests can assert on 4xx bodies. */
export const anyStatus: AxiosRequestConfig = { validateStatus: () => true };

/** The CSRF token of a browser flow. */
export function csrfOf(flow: { ui: { nodes: { attributes: unknown }[] } }): string {
  const node = flow.ui.nodes.find((n) => (n.attributes as { name?: string }).name === 'csrf_token');
  return String((node?.attributes as { value?: unknown } | undefined)?.value ?? '');
}

/** A browser-like client of a project's API: FrontendApi plus a cookie jar fed from every answer it is given. */
export function browserOf(baseUrl: string) {
  const api = frontendApi(baseUrl);
  const jar = new CookieJar();
  const keep = <T extends { headers: Record<string, unknown> }>(res: T): T => {
    jar.store(res.headers['set-cookie'] as string[] | undefined);
    return res;
  };
  return { api, jar, keep, cookie: () => jar.header() };
}
