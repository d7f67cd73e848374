import { randomUUID } from 'node:crypto';
import { exportJWK, generateKeyPair } from 'jose';
import type { SigningKey } from './storage';

/** The algorithm of a project's ID-token and JWT access-token signatures (Hydra's default, `RS256`). */
export const SIGNING_ALG = 'RS256';

/**
 * A new private signing key as a JWK, ready to be stored (in the database, never in a log) and published in
 * the project's JWKS without its private parts. Hydra names its keys by a random UUID; so does this.
 */
export async function generateSigningKey(): Promise<SigningKey> {
  const { privateKey } = await generateKeyPair(SIGNING_ALG, { modulusLength: 2048, extractable: true });
  const jwk = await exportJWK(privateKey);
  return { ...jwk, kid: randomUUID(), alg: SIGNING_ALG, use: 'sig' };
}

