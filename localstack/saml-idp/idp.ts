// @peculiar/x509 reads decorator metadata: the polyfill must load first.
import 'reflect-metadata';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { randomBytes, webcrypto } from 'node:crypto';
import { inflateRawSync } from 'node:zlib';
import type { AddressInfo } from 'node:net';
import { DOMParser } from '@xmldom/xmldom';
import { SignedXml } from 'xml-crypto';
import { X509CertificateGenerator } from '@peculiar/x509';

/*
 * A SAML identity provider for local use and tests: its signing key and self-signed certificate are made at
 * start, it listens on the loopback interface only and answers only service providers on this machine. Its
 * sign-in page asks for no password: whoever reaches it picks the person it vouches for. Assertions are signed
 * with xml-crypto (enveloped, RSA-SHA256, exclusive canonicalization); nothing here checks signatures.
 */

const SAMLP = 'urn:oasis:names:tc:SAML:2.0:protocol';
const SAML = 'urn:oasis:names:tc:SAML:2.0:assertion';
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
}

export interface SamlAnswer {
  acsUrl: string;
  SAMLResponse: string;
  RelayState: string;
  /** The response's XML (before base64), for tests that take it apart. */
  xml: string;
}

export interface SamlTestIdp {
  url: string;
  entityId: string;
  metadataUrl: string;
  metadataXml: string;
  /** Reads an HTTP-Redirect binding URL of an AuthnRequest sent here. */
  readRequest(redirectUrl: string): { request: SamlAuthnRequest; relayState: string };
  /** The response a browser would post to the service provider; `sign: 'none'` leaves the assertion unsigned. */
  respond(request: SamlAuthnRequest, relayState: string, user: SamlUser, options?: { sign?: 'assertion' | 'none' }): SamlAnswer;
  close(): Promise<void>;
}

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);
const newId = () => `_${randomBytes(20).toString('hex')}`;
const wrapPem = (label: string, der: ArrayBuffer) =>
  `-----BEGIN ${label}-----\n${Buffer.from(der).toString('base64').match(/.{1,64}/g)!.join('\n')}\n-----END ${label}-----\n`;

function isLoopbackUrl(raw: string): boolean {
  try {
    const url = new URL(raw);
    return (url.protocol === 'http:' || url.protocol === 'https:') && LOOPBACK_HOSTS.has(url.hostname);
  } catch {
    return false;
  }
}

async function signingKey(): Promise<{ privateKey: string; certificate: string; certificateB64: string }> {
  const algorithm = { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256', publicExponent: new Uint8Array([1, 0, 1]), modulusLength: 2048 };
  const keys = (await webcrypto.subtle.generateKey(algorithm, true, ['sign', 'verify'])) as CryptoKeyPair;
  const now = Date.now();
  const cert = await X509CertificateGenerator.createSelfSigned(
    {
      serialNumber: randomBytes(8).toString('hex'),
      name: 'CN=Local SAML test identity provider',
      notBefore: new Date(now - 60_000),
      notAfter: new Date(now + 365 * 24 * 3600_000),
      signingAlgorithm: algorithm,
      keys,
    },
    webcrypto as unknown as Crypto,
  );
  const der = cert.rawData;
  return {
    privateKey: wrapPem('PRIVATE KEY', await webcrypto.subtle.exportKey('pkcs8', keys.privateKey)),
    certificate: wrapPem('CERTIFICATE', der),
    certificateB64: Buffer.from(der).toString('base64'),
  };
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

/** Starts the identity provider on 127.0.0.1 (`port` 0: any free port). */
export async function startSamlTestIdp(options: { port?: number } = {}): Promise<SamlTestIdp> {
  const key = await signingKey();
  let base = '';
  const entityId = () => `${base}/metadata`;

  const metadata = () => `<?xml version="1.0" encoding="UTF-8"?>
<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" xmlns:ds="http://www.w3.org/2000/09/xmldsig#" entityID="${esc(entityId())}">
  <md:IDPSSODescriptor WantAuthnRequestsSigned="false" protocolSupportEnumeration="${SAMLP}">
    <md:KeyDescriptor use="signing"><ds:KeyInfo><ds:X509Data><ds:X509Certificate>${key.certificateB64}</ds:X509Certificate></ds:X509Data></ds:KeyInfo></md:KeyDescriptor>
    <md:NameIDFormat>urn:oasis:names:tc:SAML:1.1:nameid-format:unspecified</md:NameIDFormat>
    <md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect" Location="${esc(base)}/sso"/>
  </md:IDPSSODescriptor>
</md:EntityDescriptor>
`;

  function readRequest(redirectUrl: string): { request: SamlAuthnRequest; relayState: string } {
    const url = new URL(redirectUrl);
    const encoded = url.searchParams.get('SAMLRequest');
    if (!encoded) throw new Error('no SAMLRequest');
    const xml = inflateRawSync(Buffer.from(encoded, 'base64')).toString('utf8');
    const doc = new DOMParser().parseFromString(xml, 'text/xml');
    const root = doc.documentElement;
    if (!root || root.namespaceURI !== SAMLP || root.localName !== 'AuthnRequest') throw new Error('not an AuthnRequest');
    const acsUrl = root.getAttribute('AssertionConsumerServiceURL') ?? '';
    if (!isLoopbackUrl(acsUrl)) throw new Error('this identity provider answers only service providers on this machine');
    const issuer = root.getElementsByTagNameNS(SAML, 'Issuer')[0]?.textContent?.trim() ?? '';
    return { request: { id: root.getAttribute('ID') ?? '', acsUrl, issuer }, relayState: url.searchParams.get('RelayState') ?? '' };
  }

  function respond(request: SamlAuthnRequest, relayState: string, user: SamlUser, opts: { sign?: 'assertion' | 'none' } = {}): SamlAnswer {
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
    let assertion = `<saml:Assertion xmlns:saml="${SAML}" ID="${assertionId}" Version="2.0" IssueInstant="${at(0)}"><saml:Issuer>${esc(entityId())}</saml:Issuer><saml:Subject><saml:NameID Format="urn:oasis:names:tc:SAML:1.1:nameid-format:unspecified">${esc(user.subject ?? user.email)}</saml:NameID><saml:SubjectConfirmation Method="urn:oasis:names:tc:SAML:2.0:cm:bearer"><saml:SubjectConfirmationData NotOnOrAfter="${at(300_000)}" Recipient="${esc(request.acsUrl)}" InResponseTo="${esc(request.id)}"/></saml:SubjectConfirmation></saml:Subject><saml:Conditions NotBefore="${at(-60_000)}" NotOnOrAfter="${at(300_000)}"><saml:AudienceRestriction><saml:Audience>${esc(request.issuer)}</saml:Audience></saml:AudienceRestriction></saml:Conditions><saml:AuthnStatement AuthnInstant="${at(0)}" SessionIndex="${newId()}"><saml:AuthnContext><saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:unspecified</saml:AuthnContextClassRef></saml:AuthnContext></saml:AuthnStatement><saml:AttributeStatement>${Object.entries(
      attributes,
    )
      .map(([name, value]) => `<saml:Attribute Name="${esc(name)}"><saml:AttributeValue>${esc(value)}</saml:AttributeValue></saml:Attribute>`)
      .join('')}</saml:AttributeStatement></saml:Assertion>`;
    if (opts.sign !== 'none') {
      const sig = new SignedXml({
        privateKey: key.privateKey,
        publicCert: key.certificate,
        signatureAlgorithm: 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
        canonicalizationAlgorithm: 'http://www.w3.org/2001/10/xml-exc-c14n#',
      });
      sig.addReference({
        xpath: `/*[local-name(.)='Assertion']`,
        transforms: ['http://www.w3.org/2000/09/xmldsig#enveloped-signature', 'http://www.w3.org/2001/10/xml-exc-c14n#'],
        digestAlgorithm: 'http://www.w3.org/2001/04/xmlenc#sha256',
      });
      sig.computeSignature(assertion, { location: { reference: `/*[local-name(.)='Assertion']/*[local-name(.)='Issuer']`, action: 'after' } });
      assertion = sig.getSignedXml();
    }
    const xml = `<samlp:Response xmlns:samlp="${SAMLP}" xmlns:saml="${SAML}" ID="${newId()}" Version="2.0" IssueInstant="${at(0)}" Destination="${esc(request.acsUrl)}" InResponseTo="${esc(request.id)}"><saml:Issuer>${esc(entityId())}</saml:Issuer><samlp:Status><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Success"/></samlp:Status>${assertion}</samlp:Response>`;
    return { acsUrl: request.acsUrl, SAMLResponse: Buffer.from(xml, 'utf8').toString('base64'), RelayState: relayState, xml };
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
      const { request, relayState } = readRequest(url.href);
      page(
        res,
        200,
        `<h1>Sign in to ${esc(request.issuer)}</h1><p>This identity provider is for local use: it vouches for whomever you name.</p><form method="post" action="/sso"><input type="hidden" name="SAMLRequest" value="${esc(url.searchParams.get('SAMLRequest') ?? '')}"><input type="hidden" name="RelayState" value="${esc(relayState)}"><p><label>Email <input name="email" type="email" required autocomplete="email"></label></p><p><label>First name <input name="firstName" autocomplete="given-name"></label></p><p><label>Last name <input name="lastName" autocomplete="family-name"></label></p><button type="submit">Sign in</button></form>`,
      );
      return;
    }
    if (req.method === 'POST' && url.pathname === '/sso') {
      const form = await readBody(req);
      const redirect = new URL(`${base}/sso`);
      redirect.searchParams.set('SAMLRequest', form.get('SAMLRequest') ?? '');
      redirect.searchParams.set('RelayState', form.get('RelayState') ?? '');
      const { request, relayState } = readRequest(redirect.href);
      const email = (form.get('email') ?? '').trim();
      if (!email) {
        page(res, 400, '<p>Give an email address.</p>');
        return;
      }
      const answer = respond(request, relayState, { email, firstName: form.get('firstName') ?? '', lastName: form.get('lastName') ?? '' });
      page(
        res,
        200,
        `<form method="post" action="${esc(answer.acsUrl)}"><input type="hidden" name="SAMLResponse" value="${answer.SAMLResponse}"><input type="hidden" name="RelayState" value="${esc(answer.RelayState)}"><button type="submit">Continue</button></form><script>document.forms[0].submit()</script>`,
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
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}
