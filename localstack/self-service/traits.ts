import { addNodeMessage, setValue, type UiNode } from './nodes';
import { texts } from './texts';
import type { Traits } from '../identity/store';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * Validates submitted traits against the console's identity schema (email required and well-formed,
 * name optional), echoing values into the nodes and adding Kratos' messages. Null when invalid.
 */
export function validateTraits(nodes: UiNode[], raw: { email?: string; name?: string } | undefined): Traits | null {
  const email = raw?.email?.trim() ?? '';
  const name = raw?.name?.trim() ?? '';
  setValue(nodes, 'traits.email', raw?.email ?? '');
  setValue(nodes, 'traits.name', raw?.name ?? '');
  let ok = true;
  if (!email) {
    addNodeMessage(nodes, 'traits.email', texts.required('email'));
    ok = false;
  } else if (!EMAIL.test(email) || email.length > 320) {
    addNodeMessage(nodes, 'traits.email', texts.invalidEmail(email));
    ok = false;
  }
  if (name.length > 256) {
    addNodeMessage(nodes, 'traits.name', texts.maxLength(256, name.length));
    ok = false;
  }
  return ok ? { email, name } : null;
}
