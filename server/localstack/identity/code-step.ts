import type { SubmitArgs } from './flow-routes';
import { burnCodes, MAX_CODE_ATTEMPTS, redeemCode, type CodeKind } from './codes';
import { chooseCodeNodes, enterCodeNodes, addNodeMessage } from './nodes';
import { texts } from './texts';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Email step of a code flow: the normalised address, or null after adding the node error. */
export function readEmail(args: SubmitArgs): string | null {
  const raw = args.body.email?.trim() ?? '';
  args.flow.ui.nodes = chooseCodeNodes(args.flow.csrf_token, args.body.email ?? '');
  args.flow.ui.messages = [];
  if (!raw) addNodeMessage(args.flow.ui.nodes, 'email', texts.required('email'));
  else if (!EMAIL.test(raw)) addNodeMessage(args.flow.ui.nodes, 'email', texts.invalidFormat(raw, 'email'));
  else return raw.toLowerCase();
  return null;
}

/** Puts the flow in `sent_email` for `email`. */
export function markSent(args: SubmitArgs, kind: CodeKind, email: string): void {
  const { flow } = args;
  flow.state = 'sent_email';
  flow.data.email = email;
  flow.data.attempts = 0;
  flow.ui.nodes = enterCodeNodes(flow.csrf_token, email, kind);
  flow.ui.messages = [kind === 'recovery' ? texts.recoveryCodeSent() : texts.verificationCodeSent()];
}

/**
 * Code step: redeems the code once. On a wrong code adds Kratos' message and counts the attempt
 * (after MAX_CODE_ATTEMPTS every code of the flow is burnt) and returns null.
 */
export async function redeem(args: SubmitArgs, kind: CodeKind): Promise<{ identityId: string; address: string } | null> {
  const { flow, db } = args;
  const code = args.body.code?.trim() ?? '';
  const email = typeof flow.data.email === 'string' ? flow.data.email : '';
  const found = /^\d{6}$/.test(code) ? await db.tx((q) => redeemCode(q, flow.id, kind, code)) : null;
  flow.ui.nodes = enterCodeNodes(flow.csrf_token, email, kind);
  if (found) return found;
  const attempts = (typeof flow.data.attempts === 'number' ? flow.data.attempts : 0) + 1;
  flow.data.attempts = attempts;
  if (attempts >= MAX_CODE_ATTEMPTS) await burnCodes(db, flow.id);
  flow.ui.messages = [kind === 'recovery' ? texts.recoveryCodeInvalid() : texts.verificationCodeInvalid()];
  return null;
}
