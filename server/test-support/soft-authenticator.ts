import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';
import { isoCBOR } from '@simplewebauthn/server/helpers';

/*
 * A software authenticator for integration tests: it answers a flow's WebAuthn options as a browser with a
 * platform authenticator would (a "none" attestation of an ES256 key, then assertions signed with it), so
 * tests drive the passkey and security-key ceremonies over HTTP without a browser. The e2e journeys use
 * Chromium's virtual authenticator instead. Node's crypto signs; the CBOR is @simplewebauthn's encoder.
 */

const b64url = (bytes: Uint8Array | Buffer) => Buffer.from(bytes).toString('base64url');
const sha256 = (data: Uint8Array | string) => createHash('sha256').update(data).digest();

export interface SoftKey {
  id: Buffer;
  privateKey: KeyObject;
  userHandle: string;
  counter: number;
}

interface CreationOptions {
  challenge: string;
  rp: { id?: string };
  user: { id: string };
}

interface RequestOptions {
  challenge: string;
  rpId?: string;
}

function coseKey(publicKey: KeyObject): Uint8Array {
  const jwk = publicKey.export({ format: 'jwk' });
  return isoCBOR.encode(
    new Map<number, number | Uint8Array>([
      [1, 2], // kty: EC2
      [3, -7], // alg: ES256
      [-1, 1], // crv: P-256
      [-2, Buffer.from(jwk.x!, 'base64url')],
      [-3, Buffer.from(jwk.y!, 'base64url')],
    ]),
  );
}

const flagsAndCounter = (flags: number, counter: number) => {
  const out = Buffer.alloc(5);
  out.writeUInt8(flags, 0);
  out.writeUInt32BE(counter, 1);
  return out;
};

export function softAuthenticator(origin: string) {
  const keys: SoftKey[] = [];
  const rpIdOf = (id: string | undefined) => id ?? new URL(origin).hostname;
  return {
    keys,
    /** The browser's answer to `navigator.credentials.create` with these options (its JSON, as the forms post it). */
    create(options: CreationOptions): { answer: string; key: SoftKey } {
      const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
      const id = randomBytes(16);
      const key: SoftKey = { id, privateKey, userHandle: options.user.id, counter: 0 };
      const clientDataJSON = Buffer.from(JSON.stringify({ type: 'webauthn.create', challenge: options.challenge, origin, crossOrigin: false }));
      const idLength = Buffer.alloc(2);
      idLength.writeUInt16BE(id.length);
      // Flags: user present (0x01), user verified (0x04), attested credential data (0x40).
      const authData = Buffer.concat([sha256(rpIdOf(options.rp.id)), flagsAndCounter(0x45, 0), Buffer.alloc(16), idLength, id, coseKey(publicKey)]);
      const attestationObject = isoCBOR.encode(new Map<string, unknown>([['fmt', 'none'], ['attStmt', new Map()], ['authData', authData]]) as never);
      keys.push(key);
      const answer = {
        id: b64url(id),
        rawId: b64url(id),
        type: 'public-key',
        response: { clientDataJSON: b64url(clientDataJSON), attestationObject: b64url(attestationObject), transports: ['internal'] },
        authenticatorAttachment: 'platform',
        clientExtensionResults: {},
      };
      return { answer: JSON.stringify(answer), key };
    },
    /** The browser's answer to `navigator.credentials.get` with these options, signed by `key`. */
    get(options: RequestOptions, key: SoftKey, opts: { userHandle?: boolean } = {}): string {
      key.counter += 1;
      const clientDataJSON = Buffer.from(JSON.stringify({ type: 'webauthn.get', challenge: options.challenge, origin, crossOrigin: false }));
      const authenticatorData = Buffer.concat([sha256(rpIdOf(options.rpId)), flagsAndCounter(0x05, key.counter)]);
      const signature = sign('sha256', Buffer.concat([authenticatorData, sha256(clientDataJSON)]), key.privateKey);
      return JSON.stringify({
        id: b64url(key.id),
        rawId: b64url(key.id),
        type: 'public-key',
        response: {
          clientDataJSON: b64url(clientDataJSON),
          authenticatorData: b64url(authenticatorData),
          signature: b64url(signature),
          ...(opts.userHandle === false ? {} : { userHandle: key.userHandle }),
        },
        authenticatorAttachment: 'platform',
        clientExtensionResults: {},
      });
    },
  };
}
