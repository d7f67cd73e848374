import { eq } from 'drizzle-orm';
import type { Queryable } from '../db/types';
import { samlSpKeys } from '../identity/schema';
import { selfSignedKey } from '../kernel/self-signed';

/** The tenant's SAML service-provider key: its private key (PEM) and the certificate its metadata publishes. */
export interface SamlSpKey {
  privateKey: string;
  certificate: string;
}

/** Twenty years: a certificate in an identity provider's configuration should not lapse under it. */
const LIFETIME_MS = 20 * 365 * 24 * 3600_000;

/**
 * The tenant's key, made on first use and kept, so the metadata an identity provider imported stays valid
 * across restarts; two requests racing to make it keep whichever was stored first.
 */
export async function samlSpKey(q: Queryable, nid: string, now: Date): Promise<SamlSpKey> {
  const read = async () => (await q.orm.select().from(samlSpKeys).where(eq(samlSpKeys.nid, nid)))[0];
  const found = await read();
  if (found) return { privateKey: found.private_key, certificate: found.certificate };
  const fresh = await selfSignedKey(`SAML service provider ${nid}`, now, LIFETIME_MS);
  await q.orm.insert(samlSpKeys).values({ nid, private_key: fresh.privateKey, certificate: fresh.certificate, created_at: now }).onConflictDoNothing();
  const stored = await read();
  if (!stored) throw new Error('the SAML service-provider key was not stored');
  return { privateKey: stored.private_key, certificate: stored.certificate };
}
