import { CookieJar, frontendApi } from './users';

function csrfOf(flow: { ui: { nodes: { attributes: unknown }[] } }): string {
  const node = flow.ui.nodes.find((n) => (n.attributes as { name?: string }).name === 'csrf_token');
  return String((node?.attributes as { value?: unknown } | undefined)?.value ?? '');
}

/**
 * Verifies a console user's email address as they would: a browser verification flow, the code read from
 * the stack's mailbox (the stack runs with `mailbox: true`), and the code sent back.
 */
export async function verifyEmail(stackUrl: string, user: { cookie: string; email: string }): Promise<void> {
  const api = frontendApi(stackUrl);
  const jar = new CookieJar();
  const keep = <T extends { headers: Record<string, unknown> }>(res: T): T => (jar.store(res.headers['set-cookie'] as string[] | undefined), res);
  const cookie = () => [user.cookie, jar.header()].filter(Boolean).join('; ');
  const flow = keep(await api.createBrowserVerificationFlow());
  keep(await api.updateVerificationFlow({ flow: flow.data.id, cookie: cookie(), updateVerificationFlowBody: { method: 'code', email: user.email, csrf_token: csrfOf(flow.data) } }));
  const res = await fetch(`${stackUrl}/local/mailbox/messages?${new URLSearchParams({ to: user.email, project: '' })}`);
  const mail = ((await res.json()) as { body: string; template_type: string }[]).find((m) => m.template_type.startsWith('verification'));
  const code = /\b(\d{6})\b/.exec(mail?.body ?? '')?.[1];
  if (!code) throw new Error(`no verification code mailed to ${user.email}`);
  const done = await api.updateVerificationFlow({ flow: flow.data.id, cookie: cookie(), updateVerificationFlowBody: { method: 'code', code, csrf_token: csrfOf(flow.data) } });
  if (done.data.state !== 'passed_challenge') throw new Error(`verifying ${user.email} ended in state ${String(done.data.state)}`);
}
