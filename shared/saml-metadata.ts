import { X509Certificate } from 'node:crypto';
import { DOMParser } from '@xmldom/xmldom';

/*
 * Reading an identity provider's SAML metadata (node only: the BFF's `parseMetadata` and the local stack's
 * service provider read it alike). The XML is parsed by xmldom, the certificates by node's X509Certificate.
 */

const MD = 'urn:oasis:names:tc:SAML:2.0:metadata';
const DSIG = 'http://www.w3.org/2000/09/xmldsig#';
const REDIRECT = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect';
const POST = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST';

/** Metadata larger than this is refused before parsing. */
export const MAX_METADATA_BYTES = 256 * 1024;

export interface IdpMetadata {
  entityId: string;
  /** The single sign-on service the browser is sent to (HTTP-Redirect binding, else HTTP-POST). */
  ssoUrl: string;
  ssoBinding: 'redirect' | 'post';
  /** The single logout service with the HTTP-Redirect binding, when the identity provider has one. */
  sloUrl?: string;
  /** Signing certificates, as PEM. */
  certificates: string[];
  /** When each certificate stops being valid (ISO 8601), in the same order. */
  validTo: string[];
}

export class MetadataError extends Error {}

const pem = (b64: string) => `-----BEGIN CERTIFICATE-----\n${b64.match(/.{1,64}/g)?.join('\n') ?? ''}\n-----END CERTIFICATE-----\n`;

/** Parses IdP metadata; a `MetadataError` says in plain words what is missing or wrong. */
export function parseIdpMetadata(xml: string): IdpMetadata {
  if (Buffer.byteLength(xml, 'utf8') > MAX_METADATA_BYTES) throw new MetadataError('The metadata is larger than 256 KiB.');
  if (/<!DOCTYPE/i.test(xml)) throw new MetadataError('The metadata must not carry a document type declaration.');
  const problems: string[] = [];
  const doc = new DOMParser({
    errorHandler: (level: string, msg: unknown) => {
      if (level !== 'warning') problems.push(String(msg));
    },
  }).parseFromString(xml, 'text/xml');
  if (problems.length > 0 || !doc?.documentElement) throw new MetadataError('The metadata is not well-formed XML.');
  let entity: Element = doc.documentElement;
  if (entity.namespaceURI === MD && entity.localName === 'EntitiesDescriptor') {
    const inner = entity.getElementsByTagNameNS(MD, 'EntityDescriptor')[0];
    if (inner) entity = inner;
  }
  if (entity.namespaceURI !== MD || entity.localName !== 'EntityDescriptor') throw new MetadataError('The metadata has no SAML 2.0 EntityDescriptor.');
  const entityId = entity.getAttribute('entityID')?.trim() ?? '';
  if (!entityId) throw new MetadataError('The metadata names no entity ID (entityID).');
  const idp = entity.getElementsByTagNameNS(MD, 'IDPSSODescriptor')[0];
  if (!idp) throw new MetadataError('The metadata describes no identity provider (IDPSSODescriptor).');
  const services = Array.from(idp.getElementsByTagNameNS(MD, 'SingleSignOnService'));
  const redirect = services.find((s) => s.getAttribute('Binding') === REDIRECT);
  const post = services.find((s) => s.getAttribute('Binding') === POST);
  const sso = redirect ?? post;
  const ssoUrl = sso?.getAttribute('Location')?.trim() ?? '';
  if (!sso || !/^https?:\/\/\S+$/.test(ssoUrl)) throw new MetadataError('The metadata has no single sign-on URL with the HTTP-Redirect or HTTP-POST binding.');
  const certificates: string[] = [];
  const validTo: string[] = [];
  for (const key of Array.from(idp.getElementsByTagNameNS(MD, 'KeyDescriptor'))) {
    const use = key.getAttribute('use');
    if (use && use !== 'signing') continue;
    for (const node of Array.from(key.getElementsByTagNameNS(DSIG, 'X509Certificate'))) {
      const b64 = (node.textContent ?? '').replace(/\s+/g, '');
      if (!b64) continue;
      let cert: X509Certificate;
      try {
        cert = new X509Certificate(pem(b64));
      } catch {
        throw new MetadataError('A signing certificate of the metadata cannot be read.');
      }
      certificates.push(pem(b64));
      validTo.push(new Date(cert.validTo).toISOString());
    }
  }
  if (certificates.length === 0) throw new MetadataError('The metadata has no signing certificate: assertions could not be checked.');
  const slo = Array.from(idp.getElementsByTagNameNS(MD, 'SingleLogoutService'))
    .find((s) => s.getAttribute('Binding') === REDIRECT)
    ?.getAttribute('Location')
    ?.trim();
  return { entityId, ssoUrl, ssoBinding: redirect ? 'redirect' : 'post', ...(slo && /^https?:\/\/\S+$/.test(slo) ? { sloUrl: slo } : {}), certificates, validTo };
}
