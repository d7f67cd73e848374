// @peculiar/x509 reads decorator metadata: the polyfill must load first.
import 'reflect-metadata';
import { randomBytes, webcrypto } from 'node:crypto';
import { X509CertificateGenerator } from '@peculiar/x509';

/** An RSA key (PKCS#8 PEM) with a self-signed certificate (PEM, and its DER in base64 as metadata carries it). */
export interface SelfSignedKey {
  privateKey: string;
  certificate: string;
  certificateB64: string;
}

const wrapPem = (label: string, der: ArrayBuffer) =>
  `-----BEGIN ${label}-----\n${Buffer.from(der).toString('base64').match(/.{1,64}/g)!.join('\n')}\n-----END ${label}-----\n`;

/**
 * A new 2048-bit RSA key and a self-signed certificate for it (RSA-SHA256), valid from a minute before
 * `notBefore` for `lifetimeMs`: what SAML metadata publishes, where only the key matters, not a CA.
 */
export async function selfSignedKey(commonName: string, notBefore: Date, lifetimeMs: number): Promise<SelfSignedKey> {
  const algorithm = { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256', publicExponent: new Uint8Array([1, 0, 1]), modulusLength: 2048 };
  const keys = (await webcrypto.subtle.generateKey(algorithm, true, ['sign', 'verify'])) as CryptoKeyPair;
  const cert = await X509CertificateGenerator.createSelfSigned(
    {
      serialNumber: randomBytes(8).toString('hex'),
      name: `CN=${commonName.replace(/[,+="\\<>;#]/g, ' ')}`,
      notBefore: new Date(notBefore.getTime() - 60_000),
      notAfter: new Date(notBefore.getTime() + lifetimeMs),
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
