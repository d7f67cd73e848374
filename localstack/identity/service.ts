import type { Identity } from '@ory/client';
import type { Queryable } from '../db/types';
import { findIdentity } from './store';
import { publicIdentityView } from './views';

/** The identity of tenant `nid` as the public API shows it (whoami, settings flows, registration), or null. */
export async function publicIdentity(q: Queryable, nid: string, identityId: string, base: string): Promise<Identity | null> {
  const found = await findIdentity(q, nid, identityId);
  return found ? publicIdentityView(found, base) : null;
}
