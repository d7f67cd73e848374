import type { AxiosRequestConfig } from 'axios';
import { CookieJar, frontendApi } from '../../server/test-support/users';

export { FAST_HASH, startTestStack, TEST_UI_URL } from '../../server/test-support/stack';

/** Answer any status without throwing, so tests can assert on 4xx bodies. */
export const anyStatus: AxiosRequestConfig = { validateStatus: () => true };

export function csrfOf(flow: { ui: { nodes: { attributes: unknown }[] } }): string {
  const node = flow.ui.nodes.find((n) => (n.attributes as { name?: string }).name === 'csrf_token');
  return String((node?.attributes as { value?: unknown } | undefined)?.value ?? '');
}

/** A browser-like client: FrontendApi plus a cookie jar fed from every answer. */
export function browser(baseUrl: string) {
  const api = frontendApi(baseUrl);
  const jar = new CookieJar();
  const keep = <T extends { headers: Record<string, unknown> }>(res: T): T => {
    jar.store(res.headers['set-cookie'] as string[] | undefined);
    return res;
  };
  return { api, jar, keep, cookie: () => jar.header() };
}

interface MailMessage {
  recipient: string;
  subject: string;
  body: string;
  template_type: string;
}

/**
 * The newest mailbox message for `to`, and the 6-digit code in it; of one project's tenant when `project`
 * (a slug) is given, of any tenant otherwise. `baseUrl` is the local stack's own URL.
 */
export async function latestCode(baseUrl: string, to: string, project?: string): Promise<{ message: MailMessage; code: string }> {
  const query = new URLSearchParams({ to, ...(project === undefined ? {} : { project }) });
  const res = await fetch(`${baseUrl}/local/mailbox/messages?${query}`);
  const messages = (await res.json()) as MailMessage[];
  const message = messages[0];
  const code = message?.body.match(/\b(\d{6})\b/)?.[1];
  if (!message || !code) throw new Error(`no code mailed to ${to}`);
  return { message, code };
}
