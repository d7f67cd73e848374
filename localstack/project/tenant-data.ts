import { eq } from 'drizzle-orm';
import type { Queryable } from '../db/types';
import { courierMessages, identities, samlSpKeys, selfserviceErrors, selfserviceFlows, sessions } from '../identity/schema';
import { CONSOLE_NID } from '../kernel/tenant-id';

/**
 * Deletes everything a tenant holds: identities (with their credentials, addresses, sessions, flows and
 * codes, by ON DELETE CASCADE), flows without an identity, sessions, errors, courier messages and its SAML
 * service-provider key. The control plane calls it with the project's id, in the transaction that purges the
 * project, since a foreign key from `nid` to projects cannot exist (the console's own tenant has no project).
 */
export async function deleteTenantData(q: Queryable, nid: string): Promise<void> {
  if (nid === CONSOLE_NID) throw new Error("the console's own tenant is never deleted");
  await q.orm.delete(selfserviceFlows).where(eq(selfserviceFlows.nid, nid));
  await q.orm.delete(sessions).where(eq(sessions.nid, nid));
  await q.orm.delete(identities).where(eq(identities.nid, nid));
  await q.orm.delete(selfserviceErrors).where(eq(selfserviceErrors.nid, nid));
  await q.orm.delete(courierMessages).where(eq(courierMessages.nid, nid));
  await q.orm.delete(samlSpKeys).where(eq(samlSpKeys.nid, nid));
}
