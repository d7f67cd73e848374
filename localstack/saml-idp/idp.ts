import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createPublicKey, randomBytes } from 'node:crypto';
import { promisify } from 'node:util';
import { inflateRawSync } from 'node:zlib';
import type { AddressInfo } from 'node:net';
import { DOMParser } from '@xmldom/xmldom';
import { SignedXml } from 'xml-crypto';
import { SAML as NodeSaml } from '@node-saml/node-saml';
import { encrypt } from 'xml-encryption';
import { selfSignedKey } from '../kernel/self-signed';

/*
 * A SAML identity provider for local use and tests: its signing key and self-signed certificate are made at
 * start, it listens on the loopback interface only and answers only service providers on this machine. Its
 * sign-in page asks for no password: whoever reaches it picks the person it vouches for. Assertions are signed
 * with xml-crypto (enveloped, RSA-SHA256, exclusive canonicalization) and, when asked, encrypted to the service
 * provider's encryption certificate with xml-encryption (what node-saml decrypts with). A signed AuthnRequest
 * is checked by node-saml against the signing certificate of the service provider's metadata, read from its
 * entity ID (a URL on this machine); with `wantSignedRequests` an unsigned one is refused. Its single logout
 * service answers a service provider's LogoutRequest (checked the same way) with a signed LogoutResponse, and it
 * can send a signed LogoutRequest of its own.
 */

const SAMLP = 'urn:oasis:names:tc:SAML:2.0:protocol';
const SAML = 'urn:oasis:names:tc:SAML:2.0:assertion';
const MD = 'urn:oasis:names:tc:SAML:2.0:metadata';
const DSIG = 'http://www.w3.org/2000/09/xmldsig#';
const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

export interface SamlUser {
  /** The NameID the assertion carries; the email when not given. */
  subject?: string;
  email: string;
  firstName?: string;
  lastName?: string;
  /** More attributes, by name. */
  attributes?: Record<string, string>;
}

export interface SamlAuthnRequest {
  id: string;
  acsUrl: string;
  issuer: string;
  /** Whether the request came with a signature (which was then checked). */
  signed: boolean;
}

export interface SamlAnswer {
  acsUrl: string;
  SAMLResponse: string;
  RelayState: string;
  /** The response's XML (before base64), for tests that take it apart. */
  xml: string;
  /** The session index of the assertion, which a logout request names. */
  sessionIndex: string;
}

export interface SamlLogoutRequest {
  id: string;
  issuer: string;
  nameId: string;
  sessionIndex?: string;
  signed: boolean;
}

/** A logout message a browser would post to the service provider's single logout service. */
export interface SamlLogoutMessage {
  url: string;
  SAMLRequest?: string;
  SAMLResponse?: string;
  RelayState: string;
  xml: string;
}

export interface RespondOptions {
  sign?: 'assertion' | 'none';
  encrypt?: boolean;
}

export interface SamlTestIdpOptions {
  /** 0 (the default): any free port. */
  port?: number;
  /** Refuse AuthnRequests that are not signed (the metadata says `WantAuthnRequestsSigned="true"`). */
  wantSignedRequests?: boolean;
}

/** What the identity provider reads from a service provider's metadata. */
interface ServiceProviderKeys {
  signing: string[];
  encryption: string[];
  /** Its single logout service (HTTP-POST binding). */
  sloUrl?: string;
}

export interface SamlTestIdp {
  url: string;
  entityId: string;
  metadataUrl: string;
  metadataXml: string;
  /** Reads an HTTP-Redirect binding URL of an AuthnRequest sent here, refusing one whose signature does not hold. */
  readRequest(redirectUrl: string): Promise<{ request: SamlAuthnRequest; relayState: string }>;
  /**
   * The response a browser would post to the service provider; `sign: 'none'` leaves the assertion unsigned,
   * `encrypt` encrypts it to the encryption certificate of the service provider's metadata.
   */
  respond(request: SamlAuthnRequest, relayState: string, user: SamlUser, options?: RespondOptions): Promise<SamlAnswer>;
  /** Reads an HTTP-Redirect binding URL of a LogoutRequest sent here, under the same signature rules as an AuthnRequest. */
  readLogoutRequest(redirectUrl: string): Promise<{ request: SamlLogoutRequest; relayState: string }>;
  /** The signed LogoutResponse (unless `sign: 'none'`) to a service provider's LogoutRequest. */
  logoutResponse(request: SamlLogoutRequest, relayState: string, options?: { sign?: 'document' | 'none' }): Promise<SamlLogoutMessage>;
  /** A LogoutRequest of this identity provider's own, ending the subject's session at a service provider. */
  logoutRequest(spEntityId: string, subject: string, sessionIndex?: string, options?: { sign?: 'document' | 'none' }): Promise<SamlLogoutMessage>;
  close(): Promise<void>;
}

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);
const newId = () => `_${randomBytes(20).toString('hex')}`;

function isLoopbackUrl(raw: string): boolean {
  try {
    const url = new URL(raw);
    return (url.protocol === 'http:' || url.protocol === 'https:') && LOOPBACK_HOSTS.has(url.hostname);
  } catch {
    return false;
  }
}

function readBody(req: IncomingMessage): Promise<URLSearchParams> {
  return new Promise((resolve, reject) => {
    let size = 0;
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > 64 * 1024) req.destroy(new Error('body too large'));
      else chunks.push(c);
    });
    req.on('end', () => resolve(new URLSearchParams(Buffer.concat(chunks).toString('utf8'))));
    req.on('error', reject);
  });
}

const pem = (b64: string) => `-----BEGIN CERTIFICATE-----\n${b64.match(/.{1,64}/g)?.join('\n') ?? ''}\n-----END CERTIFICATE-----\n`;

/** The certificates of a service provider's metadata, fetched from its entity ID (a URL on this machine). */
async function serviceProviderKeys(entityId: string): Promise<ServiceProviderKeys> {
  if (!isLoopbackUrl(entityId)) throw new Error('this identity provider answers only service providers on this machine');
  const res = await fetch(entityId, { redirect: 'manual', signal: AbortSignal.timeout(5_000) });
  if (res.status !== 200) throw new Error(`the service provider's metadata answered ${res.status}`);
  const doc = new DOMParser().parseFromString(await res.text(), 'text/xml');
  const sp = doc.documentElement?.getElementsByTagNameNS(MD, 'SPSSODescriptor')[0];
  if (!sp) throw new Error("the service provider's metadata describes no service provider");
  const keys: ServiceProviderKeys = { signing: [], encryption: [] };
  for (const descriptor of Array.from(sp.getElementsByTagNameNS(MD, 'KeyDescriptor'))) {
    const use = descriptor.getAttribute('use');
    for (const node of Array.from(descriptor.getElementsByTagNameNS(DSIG, 'X509Certificate'))) {
      const cert = pem((node.textContent ?? '').replace(/\s+/g, ''));
      if (use !== 'encryption') keys.signing.push(cert);
      if (use !== 'signing') keys.encryption.push(cert);
    }
  }
  const slo = Array.from(sp.getElementsByTagNameNS(MD, 'SingleLogoutService')).find((e) => e.getAttribute('Binding') === 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST');
  const sloUrl = slo?.getAttribute('Location') ?? '';
  return isLoopbackUrl(sloUrl) ? { ...keys, sloUrl } : keys;
}

/** node-saml's check of an HTTP-Redirect binding signature, with the service provider's certificates as the trusted ones. */
class RedirectSignature extends NodeSaml {
  constructor(certificates: string[]) {
    super({ callbackUrl: 'http://127.0.0.1/', issuer: 'saml-test-idp', idpCert: certificates });
  }

  async holds(query: URLSearchParams, rawQuery: string): Promise<boolean> {
    try {
      await this.hasValidSignatureForRedirect(Object.fromEntries(query), rawQuery);
      return true;
    } catch {
      return false;
    }
  }
}

const encryptXml = promisify(encrypt);

/** Starts the identity provider on 127.0.0.1. */
export async function startSamlTestIdp(options: SamlTestIdpOptions = {}): Promise<SamlTestIdp> {
  const key = await selfSignedKey('Local SAML test identity provider', new Date(), 365 * 24 * 3600_000);
  let base = '';
  const entityId = () => `${base}/metadata`;

  const metadata = () => `<?xml version="1.0" encoding="UTF-8"?>
<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" xmlns:ds="http://www.w3.org/2000/09/xmldsig#" entityID="${esc(entityId())}">
  <md:IDPSSODescriptor WantAuthnRequestsSigned="${options.wantSignedRequests === true}" protocolSupportEnumeration="${SAMLP}">
    <md:KeyDescriptor use="signing"><ds:KeyInfo><ds:X509Data><ds:X509Certificate>${key.certificateB64}</ds:X509Certificate></ds:X509Data></ds:KeyInfo></md:KeyDescriptor>
    <md:SingleLogoutService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect" Location="${esc(base)}/slo"/>
    <md:NameIDFormat>urn:oasis:names:tc:SAML:1.1:nameid-format:unspecified</md:NameIDFormat>
    <md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect" Location="${esc(base)}/sso"/>
  </md:IDPSSODescriptor>
</md:EntityDescriptor>
`;

  /** The SAMLRequest of an HTTP-Redirect binding URL, its signature checked against its issuer's metadata. */
  async function readRedirect(redirectUrl: string, expected: string): Promise<{ url: URL; root: Element; issuer: string; signed: boolean }> {
    const url = new URL(redirectUrl);
    const encoded = url.searchParams.get('SAMLRequest');
    if (!encoded) throw new Error('no SAMLRequest');
    const xml = inflateRawSync(Buffer.from(encoded, 'base64')).toString('utf8');
    const doc = new DOMParser().parseFromString(xml, 'text/xml');
    const root = doc.documentElement;
    if (!root || root.namespaceURI !== SAMLP || root.localName !== expected) throw new Error(`not a ${expected}`);
    const issuer = root.getElementsByTagNameNS(SAML, 'Issuer')[0]?.textContent?.trim() ?? '';
    const signed = url.searchParams.has('Signature');
    if (!signed && options.wantSignedRequests) throw new Error(`this identity provider accepts only signed ${expected}s`);
    if (signed) {
      const { signing } = await serviceProviderKeys(issuer);
      if (signing.length === 0) throw new Error(`the ${expected} is signed but the service provider's metadata has no signing certificate`);
      if (!(await new RedirectSignature(signing).holds(url.searchParams, url.search.slice(1)))) throw new Error(`the ${expected}'s signature does not hold`);
    }
    return { url, root, issuer, signed };
  }

  async function readRequest(redirectUrl: string): Promise<{ request: SamlAuthnRequest; relayState: string }> {
    const { url, root, issuer, signed } = await readRedirect(redirectUrl, 'AuthnRequest');
    const acsUrl = root.getAttribute('AssertionConsumerServiceURL') ?? '';
    if (!isLoopbackUrl(acsUrl)) throw new Error('this identity provider answers only service providers on this machine');
    return { request: { id: root.getAttribute('ID') ?? '', acsUrl, issuer, signed }, relayState: url.searchParams.get('RelayState') ?? '' };
  }

  async function readLogoutRequest(redirectUrl: string): Promise<{ request: SamlLogoutRequest; relayState: string }> {
    const { url, root, issuer, signed } = await readRedirect(redirectUrl, 'LogoutRequest');
    const nameId = root.getElementsByTagNameNS(SAML, 'NameID')[0]?.textContent?.trim() ?? '';
    const sessionIndex = root.getElementsByTagNameNS(SAMLP, 'SessionIndex')[0]?.textContent?.trim();
    return { request: { id: root.getAttribute('ID') ?? '', issuer, nameId, ...(sessionIndex ? { sessionIndex } : {}), signed }, relayState: url.searchParams.get('RelayState') ?? '' };
  }

  /** Signs a message whole (enveloped, after its Issuer), as the assertions are signed. */
  function signWhole(xml: string, element: string): string {
    const sig = new SignedXml({
      privateKey: key.privateKey,
      publicCert: key.certificate,
      signatureAlgorithm: 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
      canonicalizationAlgorithm: 'http://www.w3.org/2001/10/xml-exc-c14n#',
    });
    sig.addReference({
      xpath: `/*[local-name(.)='${element}']`,
      transforms: ['http://www.w3.org/2000/09/xmldsig#enveloped-signature', 'http://www.w3.org/2001/10/xml-exc-c14n#'],
      digestAlgorithm: 'http://www.w3.org/2001/04/xmlenc#sha256',
    });
    sig.computeSignature(xml, { location: { reference: `/*[local-name(.)='${element}']/*[local-name(.)='Issuer']`, action: 'after' } });
    return sig.getSignedXml();
  }

  async function sloOf(spEntityId: string): Promise<string> {
    const { sloUrl } = await serviceProviderKeys(spEntityId);
    if (!sloUrl) throw new Error("the service provider's metadata has no single logout service on this machine");
    return sloUrl;
  }

  async function logoutResponse(request: SamlLogoutRequest, relayState: string, opts: { sign?: 'document' | 'none' } = {}): Promise<SamlLogoutMessage> {
    const url = await sloOf(request.issuer);
    let xml = `<samlp:LogoutResponse xmlns:samlp="${SAMLP}" xmlns:saml="${SAML}" ID="${newId()}" Version="2.0" IssueInstant="${new Date().toISOString()}" Destination="${esc(url)}" InResponseTo="${esc(request.id)}"><saml:Issuer>${esc(entityId())}</saml:Issuer><samlp:Status><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Success"/></samlp:Status></samlp:LogoutResponse>`;
    if (opts.sign !== 'none') xml = signWhole(xml, 'LogoutResponse');
    return { url, SAMLResponse: Buffer.from(xml, 'utf8').toString('base64'), RelayState: relayState, xml };
  }

  async function logoutRequest(spEntityId: string, subject: string, sessionIndex?: string, opts: { sign?: 'document' | 'none' } = {}): Promise<SamlLogoutMessage> {
    const url = await sloOf(spEntityId);
    let xml = `<samlp:LogoutRequest xmlns:samlp="${SAMLP}" xmlns:saml="${SAML}" ID="${newId()}" Version="2.0" IssueInstant="${new Date().toISOString()}" Destination="${esc(url)}"><saml:Issuer>${esc(entityId())}</saml:Issuer><saml:NameID Format="urn:oasis:names:tc:SAML:1.1:nameid-format:unspecified">${esc(subject)}</saml:NameID>${sessionIndex ? `<samlp:SessionIndex>${esc(sessionIndex)}</samlp:SessionIndex>` : ''}</samlp:LogoutRequest>`;
    if (opts.sign !== 'none') xml = signWhole(xml, 'LogoutRequest');
    return { url, SAMLRequest: Buffer.from(xml, 'utf8').toString('base64'), RelayState: '', xml };
  }

  async function respond(request: SamlAuthnRequest, relayState: string, user: SamlUser, opts: RespondOptions = {}): Promise<SamlAnswer> {
    if (!isLoopbackUrl(request.acsUrl)) throw new Error('this identity provider answers only service providers on this machine');
    const now = Date.now();
    const at = (ms: number) => new Date(now + ms).toISOString();
    const attributes: Record<string, string> = {
      email: user.email,
      ...(user.firstName ? { firstName: user.firstName } : {}),
      ...(user.lastName ? { lastName: user.lastName } : {}),
      ...user.attributes,
    };
    const assertionId = newId();
    const sessionIndex = newId();
    let assertion = `<saml:Assertion xmlns:saml="${SAML}" ID="${assertionId}" Version="2.0" IssueInstant="${at(0)}"><saml:Issuer>${esc(entityId())}</saml:Issuer><saml:Subject><saml:NameID Format="urn:oasis:names:tc:SAML:1.1:nameid-format:unspecified">${esc(user.subject ?? user.email)}</saml:NameID><saml:SubjectConfirmation Method="urn:oasis:names:tc:SAML:2.0:cm:bearer"><saml:SubjectConfirmationData NotOnOrAfter="${at(300_000)}" Recipient="${esc(request.acsUrl)}" InResponseTo="${esc(request.id)}"/></saml:SubjectConfirmation></saml:Subject><saml:Conditions NotBefore="${at(-60_000)}" NotOnOrAfter="${at(300_000)}"><saml:AudienceRestriction><saml:Audience>${esc(request.issuer)}</saml:Audience></saml:AudienceRestriction></saml:Conditions><saml:AuthnStatement AuthnInstant="${at(0)}" SessionIndex="${sessionIndex}"><saml:AuthnContext><saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:unspecified</saml:AuthnContextClassRef></saml:AuthnContext></saml:AuthnStatement><saml:AttributeStatement>${Object.entries(
      attributes,
    )
      .map(([name, value]) => `<saml:Attribute Name="${esc(name)}"><saml:AttributeValue>${esc(value)}</saml:AttributeValue></saml:Attribute>`)
      .join('')}</saml:AttributeStatement></saml:Assertion>`;
    if (opts.sign !== 'none') assertion = signWhole(assertion, 'Assertion');
    if (opts.encrypt) {
      const [certificate] = (await serviceProviderKeys(request.issuer)).encryption;
      if (!certificate) throw new Error("the service provider's metadata has no encryption certificate");
      const encrypted = await encryptXml(assertion, {
        rsa_pub: createPublicKey(certificate).export({ type: 'spki', format: 'pem' }),
        pem: certificate,
        encryptionAlgorithm: 'http://www.w3.org/2009/xmlenc11#aes256-gcm',
        keyEncryptionAlgorithm: 'http://www.w3.org/2001/04/xmlenc#rsa-oaep-mgf1p',
        disallowEncryptionWithInsecureAlgorithm: true,
      });
      assertion = `<saml:EncryptedAssertion>${encrypted}</saml:EncryptedAssertion>`;
    }
    const xml = `<samlp:Response xmlns:samlp="${SAMLP}" xmlns:saml="${SAML}" ID="${newId()}" Version="2.0" IssueInstant="${at(0)}" Destination="${esc(request.acsUrl)}" InResponseTo="${esc(request.id)}"><saml:Issuer>${esc(entityId())}</saml:Issuer><samlp:Status><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Success"/></samlp:Status>${assertion}</samlp:Response>`;
    return { acsUrl: request.acsUrl, SAMLResponse: Buffer.from(xml, 'utf8').toString('base64'), RelayState: relayState, xml, sessionIndex };
  }

  const page = (res: ServerResponse, status: number, body: string) =>
    res
      .writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store', 'x-frame-options': 'DENY' })
      .end(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Local SAML identity provider</title></head><body><main>${body}</main></body></html>`);

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', base);
    if (req.method === 'GET' && url.pathname === '/metadata') {
      res.writeHead(200, { 'content-type': 'application/samlmetadata+xml; charset=utf-8' }).end(metadata());
      return;
    }
    if (req.method === 'GET' && url.pathname === '/sso') {
      const { request } = await readRequest(url.href);
      // The request's query travels as it came, so its signature can be checked again on the way out.
      page(
        res,
        200,
        `<h1>Sign in to ${esc(request.issuer)}</h1><p>This identity provider is for local use: it vouches for whomever you name.</p><form method="post" action="/sso"><input type="hidden" name="query" value="${esc(url.search.slice(1))}"><p><label>Email <input name="email" type="email" required autocomplete="email"></label></p><p><label>First name <input name="firstName" autocomplete="given-name"></label></p><p><label>Last name <input name="lastName" autocomplete="family-name"></label></p><button type="submit">Sign in</button></form>`,
      );
      return;
    }
    if (req.method === 'POST' && url.pathname === '/sso') {
      const form = await readBody(req);
      const { request, relayState } = await readRequest(`${base}/sso?${form.get('query') ?? ''}`);
      const email = (form.get('email') ?? '').trim();
      if (!email) {
        page(res, 400, '<p>Give an email address.</p>');
        return;
      }
      const answer = await respond(request, relayState, { email, firstName: form.get('firstName') ?? '', lastName: form.get('lastName') ?? '' });
      page(
        res,
        200,
        `<form method="post" action="${esc(answer.acsUrl)}"><input type="hidden" name="SAMLResponse" value="${answer.SAMLResponse}"><input type="hidden" name="RelayState" value="${esc(answer.RelayState)}"><button type="submit">Continue</button></form><script>document.forms[0].submit()</script>`,
      );
      return;
    }
    if (req.method === 'GET' && url.pathname === '/slo') {
      const { request, relayState } = await readLogoutRequest(url.href);
      const answer = await logoutResponse(request, relayState);
      page(
        res,
        200,
        `<p>Signed out.</p><form method="post" action="${esc(answer.url)}"><input type="hidden" name="SAMLResponse" value="${answer.SAMLResponse}"><input type="hidden" name="RelayState" value="${esc(answer.RelayState)}"><button type="submit">Continue</button></form><script>document.forms[0].submit()</script>`,
      );
      return;
    }
    res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
  }

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      if (!res.headersSent) page(res, 400, `<p>${esc(err instanceof Error ? err.message : String(err))}</p>`);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: base,
    entityId: entityId(),
    metadataUrl: `${base}/metadata`,
    metadataXml: metadata(),
    readRequest,
    respond,
    readLogoutRequest,
    logoutResponse,
    logoutRequest,
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}
