import { Configuration, FrontendApi } from '@ory/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { failure, startTestStack } from '../test-support/control-plane';
import {
  HASH_FIRESCRYPT_UNSUPPORTED,
  HASH_OUT_OF_BOUNDS,
  HASH_UNKNOWN_FORMAT,
  HASH_UNPARSABLE,
} from './password-hashes';
import type { LocalStack } from '../index';
import { adminApis, call, newUser, projectWithKey, uniqueEmail, type TestProject } from '../test-support/admin-api';

let stack: LocalStack;
let project: TestProject;
let api: ReturnType<typeof adminApis>['identity'];
let frontend: FrontendApi;

beforeAll(async () => {
  stack = await startTestStack();
  const owner = await newUser(stack, 'Owner');
  project = await projectWithKey(stack, owner, 'Hash imports');
  api = adminApis(project, project.key).identity;
  frontend = new FrontendApi(new Configuration({ basePath: project.base }));
});

afterAll(async () => {
  await stack?.close();
});

/** Signs in through the project's own login flow (a native app's); the status of the submission. */
async function signIn(identifier: string, password: string): Promise<{ status: number; identityId?: string }> {
  const flow = await frontend.createNativeLoginFlow();
  const res = await frontend.updateLoginFlow(
    { flow: flow.data.id, updateLoginFlowBody: { method: 'password', identifier, password } },
    { validateStatus: () => true },
  );
  return { status: res.status, ...(res.status === 200 ? { identityId: res.data.session.identity?.id } : {}) };
}

const importHash = (email: string, hashed_password: string) =>
  api.createIdentity({ createIdentityBody: { schema_id: 'default', traits: { email }, credentials: { password: { config: { hashed_password } } } } });

/**
 * Hashes made by other systems (Kratos' own test vectors, OpenSSL's `passwd`, the SHA-crypt specification),
 * each with the password it was made from.
 */
const VECTORS: { format: string; hash: string; password: string }[] = [
  { format: 'bcrypt', hash: '$2a$10$ZsCsoVQ3xfBG/K2z2XpBf.tm90GZmtOqtqWcB5.pYd5Eq8y7RlDyq', password: '123456' },
  { format: 'argon2i', hash: '$argon2i$v=19$m=65536,t=3,p=4$STVE4CQ9qQ1dK/j224VMbA$o8b+k5wdHgBqf7ES+aWG2K7Y9diQ6ahEhbW8zcstXGo', password: '123456' },
  { format: 'argon2id', hash: '$argon2id$v=19$m=16,t=2,p=1$bVI1aE1SaTV6SGQ3bzdXdw$fnjCcZYmEPOUOjYXsT92Cg', password: '123456' },
  { format: 'pbkdf2-sha256', hash: '$pbkdf2-sha256$i=1000,l=128$e8/arsEf4cvQihdNgqj0Nw$5xQQKNTyeTHx2Ld5/JDE7A', password: '123456' },
  {
    format: 'pbkdf2-sha512',
    hash: '$pbkdf2-sha512$i=100000,l=32$bdHBpn7OWOivJMVJypy2UqR0UnaD5prQXRZevj/05YU$+wArTfv1a+bNGO1iZrmEdVjhA+lL11wF4/IxpgYfPwc',
    password: 'test',
  },
  { format: 'pbkdf2-sha224 (SHA-3)', hash: '$pbkdf2-sha224$i=100000,l=32$A2nzbFd+wwzPSb+TqkF5Pw$9M4GM2yOYw/fZvsvQbF/0Ec8JO2u9O1MYRTfrDimX6o', password: 'test' },
  {
    format: 'scrypt',
    hash: '$scrypt$ln=16384,r=8,p=1$ZtQva9xCHzlSELH/mA7Kj5KjH2tCrkbwYzdxknkL0QQ=$pnTcXKaWVT+FwFDdk3vO1K0J7ZgOxdSU1tCJNYmn8zI=',
    password: '123456',
  },
  { format: 'md5-crypt', hash: '$md5-crypt$saltsalt$le8lFSqqnPaRFOlmAZpvH1', password: 'Hello world!' },
  { format: 'sha256-crypt', hash: '$sha256-crypt$saltstring$5B8vYYiY.CVt1RlTTf8KbXBH3hsxY/GNooZaBBGWEc5', password: 'Hello world!' },
  {
    format: 'sha512-crypt',
    hash: '$sha512-crypt$saltstring$svn8UoSVapNtMuq1ukKS4tPQd8iKwSMHWjl/O817G3uBnIFNjnQJuesI68u4OTLiBFdcbYEdFCoEOfaS35inz1',
    password: 'Hello world!',
  },
  {
    format: 'sha512-crypt with rounds',
    hash: '$sha512-crypt$rounds=10000$saltstringsaltst$OW1/O6BYHV6BcXZu8QVeXbDWra3Oeqh0sbHbbMCVNSnCM/UrjmM0Dp8vOuZeHBy/YTBmSK6H9qs/y3RnOaw5v.',
    password: 'Hello world!',
  },
  { format: 'ssha', hash: '{SSHA}JFZFs0oHzxbMwkSJmYVeI8MnTDy/276a', password: 'test123' },
  { format: 'ssha256', hash: '{SSHA256}czO44OTV17PcF1cRxWrLZLy9xHd7CWyVYplr1rOhuMlx/7IK', password: 'test123' },
  {
    format: 'ssha512',
    hash: '{SSHA512}xPUl/px+1cG55rUH4rzcwxdOIPSB2TingLpiJJumN2xyDWN4Ix1WQG3ihnvHaWUE8MYNkvMi5rf0C9NYixHsE6Yh59M=',
    password: 'test123',
  },
  { format: 'sha1 with salting format', hash: '$sha1$pf=e1NBTFR9e1BBU1NXT1JEfQ==$NW9wbWtnejAzcg==$2qU2SGWP8viTM1md3FiI3+rjWXQ=', password: 'test' },
  {
    format: 'sha256 with salting format',
    hash: '$sha256$pf=e1NBTFR9JCR7UEFTU1dPUkR9$NW9wbWtnejAzcg==$HokCOi9OtiZaZRvnkgemV3B4UUHpI7kA8zq/EZWH2NY=',
    password: 'test',
  },
  {
    format: 'sha512 with salting format',
    hash: '$sha512$pf=e1NBTFR9e1BBU1NXT1JEfQ==$NW9wbWtnejAzcg==$6ctpVuApMNp0CgBXcdHw/GC562eFEFGr4gpgANX8ZYsX+j5B19IkdmOY2Fytsz3QUwSWdGcUjbqwgJGTH0UYvw==',
    password: 'test',
  },
  {
    format: 'firescrypt',
    hash:
      '$firescrypt$ln=14,r=8,p=1$sPtDhWcd1MfdAw==$xbSou7FOl6mChCyzpCPIQ7tku7nsQMTFtyOZSXXd7tjBa4NtimOx7v42Gv2SfzPQu1oxM2/k4SsbOu73wlKe1A==$Bw==$YE0dO4bwD4JnJafh6lZZfkp1MtKzuKAXQcDCJNJNyeCHairWHKENOkbh3dzwaCdizzOspwr/FITUVlnOAwPKyw==',
    password: '8x4WjoDbSxJZdR',
  },
  { format: 'md5', hash: '$md5$4QrcOUm6Wau+VuBX8g+IPg==', password: '123456' },
  { format: 'md5 with salting format', hash: '$md5$pf=e1NBTFR9e1BBU1NXT1JEfQ==$MTIz$q+RdKCgc+ipCAcm5ChQwlQ==', password: 'test' },
  {
    format: 'hmac-sha256',
    hash: '$hmac-sha256$YjhhZDA4YTNhNTQ3ZTM1ODI5YjgyMWI3NTM3MDMwMWRkOGM0YjA2YmRkNzc3MWY5YjU0MWE3NTkxNDA2ODcxOA==$MTIzNDU2',
    password: '123456',
  },
];

describe('importing password hashes of other systems', () => {
  it.each(VECTORS)('signs in with an imported $format hash and its password, and not with another', async ({ hash, password }) => {
    const email = uniqueEmail('hash');
    const created = await importHash(email, hash);
    expect(created.status).toBe(201);
    expect(created.data.credentials?.password?.identifiers).toEqual([email]);
    expect(await signIn(email, `${password}x`)).toEqual({ status: 400 });
    expect(await signIn(email, password)).toEqual({ status: 200, identityId: created.data.id });
  });

  it('refuses a hash whose declared cost exceeds Kratos\u2019 bounds, in Kratos\u2019 words, and keeps nothing', async () => {
    const salt = 'bVI1aE1SaTV6SGQ3bzdXdw';
    const key = 'fnjCcZYmEPOUOjYXsT92Cg';
    const refused = [
      // One gibibyte plus one kibibyte; eleven passes; seventeen lanes.
      `$argon2id$v=19$m=1048577,t=1,p=1$${salt}$${key}`,
      `$argon2id$v=19$m=16,t=11,p=1$${salt}$${key}`,
      `$argon2i$v=19$m=64,t=1,p=17$${salt}$${key}`,
      '$2a$16$ZsCsoVQ3xfBG/K2z2XpBf.tm90GZmtOqtqWcB5.pYd5Eq8y7RlDyq',
      '$pbkdf2-sha256$i=10000001,l=32$e8/arsEf4cvQihdNgqj0Nw$5xQQKNTyeTHx2Ld5/JDE7A',
      '$scrypt$ln=262144,r=8,p=1$ZtQva9xCHzlSELH/mA7Kj5KjH2tCrkbwYzdxknkL0QQ=$pnTcXKaWVT+FwFDdk3vO1K0J7ZgOxdSU1tCJNYmn8zI=',
      '$scrypt$ln=16384,r=9,p=1$ZtQva9xCHzlSELH/mA7Kj5KjH2tCrkbwYzdxknkL0QQ=$pnTcXKaWVT+FwFDdk3vO1K0J7ZgOxdSU1tCJNYmn8zI=',
      '$firescrypt$ln=18,r=8,p=1$sPtDhWcd1MfdAw==$xbSo$Bw==$YE0d',
    ];
    for (const hash of refused) {
      const email = uniqueEmail('costly');
      const answer = await failure(importHash(email, hash));
      expect({ hash, status: answer.status, reason: answer.body.error.reason }).toEqual({ hash, status: 400, reason: HASH_OUT_OF_BOUNDS });
      expect((await api.listIdentities({ credentialsIdentifier: email })).data).toEqual([]);
    }
    // The largest costs Kratos allows are stored (not computed until someone signs in).
    const atTheBound = await importHash(uniqueEmail('bound'), `$argon2id$v=19$m=1048576,t=10,p=16$${salt}$${key}`);
    expect(atTheBound.status).toBe(201);
  });

  it('refuses unknown and malformed hashes with Kratos\u2019 reasons', async () => {
    const cases: [string, string][] = [
      ['plain-text', HASH_UNKNOWN_FORMAT],
      ['$apr1$saltsalt$abc', HASH_UNKNOWN_FORMAT],
      ['$argon2id$v=18$m=16,t=2,p=1$bVI1aE1SaTV6SGQ3bzdXdw$fnjCcZYmEPOUOjYXsT92Cg', HASH_UNPARSABLE],
      ['$argon2id$v=19$m=16,t=2$bVI1aE1SaTV6SGQ3bzdXdw$fnjCcZYmEPOUOjYXsT92Cg', HASH_UNPARSABLE],
      ['$pbkdf2-sha256$i=1000$e8/arsEf4cvQihdNgqj0Nw$5xQQKNTyeTHx2Ld5/JDE7A', HASH_UNPARSABLE],
      ['$2a$xx$ZsCsoVQ3xfBG/K2z2XpBf.tm90GZmtOqtqWcB5.pYd5Eq8y7RlDyq', HASH_UNPARSABLE],
      ['$firescrypt$ln=14,r=8,p=2$sPtDhWcd1MfdAw==$xbSo$Bw==$YE0d', HASH_FIRESCRYPT_UNSUPPORTED],
    ];
    for (const [hash, reason] of cases) {
      const answer = await failure(importHash(uniqueEmail('odd'), hash));
      expect({ hash, status: answer.status, reason: answer.body.error.reason }).toEqual({ hash, status: 400, reason });
    }
  });

  it('fails a whole batch import over one costly hash, as Kratos does, and writes none of it', async () => {
    const good = uniqueEmail('batch-good');
    const costly = uniqueEmail('batch-costly');
    const res = await call(project.base, 'PATCH', '/admin/identities', {
      key: project.key,
      body: {
        identities: [
          { create: { schema_id: 'default', traits: { email: good }, credentials: { password: { config: { hashed_password: VECTORS[2]!.hash } } } } },
          {
            create: {
              schema_id: 'default',
              traits: { email: costly },
              credentials: { password: { config: { hashed_password: '$argon2id$v=19$m=4194304,t=1,p=1$bVI1aE1SaTV6SGQ3bzdXdw$fnjCcZYmEPOUOjYXsT92Cg' } } },
            },
          },
        ],
      },
    });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 400, reason: HASH_OUT_OF_BOUNDS, details: { index: 1 } });
    for (const email of [good, costly]) expect((await api.listIdentities({ credentialsIdentifier: email })).data).toEqual([]);
  });
});
