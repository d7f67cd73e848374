import type { SubmitArgs } from './flow-routes';
import { burnCodes, countCodeAttempt, MAX_CODE_ATTEMPTS, redeemCode, resetCodeAttempts } from './codes';
import { chooseCodeNodes, enterCodeNodes, addNodeMessage } from './nodes';
import { texts } from './texts';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Email step of a code flow: the normalised address, or null after adding the node error. */
export function readEmail(args: SubmitArgs): string | null {
  const raw = args.body.email?.trim() ?? '';
  args.flow.ui.nodes = chooseCodeNodes(args.flow.csrf_token, args.body.email ?? '');
  args.flow.ui.messages = [];
  if (!raw) addNodeMessage(args.flow.ui.nodes, 'email', texts.required('email'));
  else if (!EMAIL.test(raw)) addNodeMessage(args.flow.ui.nodes, 'email', texts.invalidEmail(raw));
  else return raw.toLowerCase();
  return null;
}

/** Puts the flow in `sent_email` for `email`, with a fresh budget of code attempts. */
export async function markSent(args: SubmitArgs, kind: 'recovery' | 'verification', email: string): Promise<void> {
  const { flow } = args;
  await resetCodeAttempts(args.db, flow.nid, flow.id);
  flow.state = 'sent_email';
  flow.data.email = email;
  flow.data.attempts = 0;
  flow.ui.nodes = enterCodeNodes(flow.csrf_token, email, kind);
  flow.ui.messages = [kind === 'recovery' ? texts.recoveryCodeSent() : texts.verificationCodeSent()];
}

/**
 * Code step: counts the submission atomically first, then redeems the code once. Past
 * MAX_CODE_ATTEMPTS submissions every code of the flow is burnt and none is accepted. On a wrong
 * code adds Kratos' message and returns null.
 */
export async function redeem(args: SubmitArgs, kind: 'recovery' | 'verification'): Promise<{ identityId: string; address: string } | null> {
  const { flow, db } = args;
  const code = args.body.code?.trim() ?? '';
  const email = typeof flow.data.email === 'string' ? flow.data.email : '';
  const attempts = await countCodeAttempt(db, flow.nid, flow.id);
  flow.data.attempts = attempts;
  const allowed = attempts <= MAX_CODE_ATTEMPTS && /^\d{6}$/.test(code);
  const found = allowed ? await db.tx((q) => redeemCode(q, flow.nid, flow.id, kind, code, args.now)) : null;
  flow.ui.nodes = enterCodeNodes(flow.csrf_token, email, kind);
  if (found) return found;
  if (attempts >= MAX_CODE_ATTEMPTS) await burnCodes(db, flow.nid, flow.id, args.now);
  flow.ui.messages = [kind === 'recovery' ? texts.recoveryCodeInvalid() : texts.verificationCodeInvalid()];
  return null;
}
