import { TRPCError } from '@trpc/server';
import { MAX_METADATA_BYTES, MetadataError, parseIdpMetadata, type IdpMetadata } from '../../../shared/saml-metadata';
import type { SamlMetadataSummary } from '../../../shared/schemas/saml-providers';

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** Metadata read for the console: a refusal says what is wrong with it (BAD_REQUEST), never a 500. */
export function readMetadata(xml: string): IdpMetadata {
  try {
    return parseIdpMetadata(xml);
  } catch (err) {
    if (err instanceof MetadataError) throw new TRPCError({ code: 'BAD_REQUEST', message: err.message });
    throw err;
  }
}

export const summary = (m: IdpMetadata): SamlMetadataSummary => ({
  entity_id: m.entityId,
  sso_url: m.ssoUrl,
  valid_to: m.validTo,
  certificate_expiry: [...m.validTo].sort()[0] ?? '',
});

/**
 * Fetches metadata from a URL on this machine (the local test identity provider, or one a developer runs):
 * the BFF reaches no other host on a caller's behalf. No redirects, five seconds, 256 KiB.
 */
export async function fetchMetadata(raw: string): Promise<string> {
  const url = new URL(raw);
  if (!LOOPBACK_HOSTS.has(url.hostname)) {
    throw new TRPCError({
      code: 'BAD_REQUEST',
      message: 'The metadata URL must point to this machine (127.0.0.1, localhost or [::1]); for an identity provider elsewhere, upload its metadata XML.',
    });
  }
  let res: Response;
  try {
    res = await fetch(url, { redirect: 'manual', signal: AbortSignal.timeout(5_000), headers: { accept: 'application/samlmetadata+xml, application/xml, text/xml' } });
  } catch {
    throw new TRPCError({ code: 'BAD_REQUEST', message: 'The metadata URL could not be reached.' });
  }
  if (res.status !== 200) {
    await res.body?.cancel();
    throw new TRPCError({ code: 'BAD_REQUEST', message: `The metadata URL answered ${res.status}; it must answer 200 with the metadata XML.` });
  }
  const reader = res.body?.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  while (reader) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.length;
    if (size > MAX_METADATA_BYTES) {
      await reader.cancel();
      throw new TRPCError({ code: 'BAD_REQUEST', message: 'The metadata is larger than 256 KiB.' });
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}
