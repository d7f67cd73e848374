import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDurableStore, startTestStack, type DurableStore } from '../../server/test-support/stack';
import { newUser, projectWithKey } from '../test-support/admin-api';
import { startSamlTestIdp, type SamlTestIdp } from '../saml-idp/idp';

// A project's SAML service-provider key is made once and kept: the certificate an identity provider imported
// from the project's metadata is the same after the stack restarts, and another project has its own.

let store: DurableStore;
let idp: SamlTestIdp;

beforeAll(async () => {
  [store, idp] = await Promise.all([createDurableStore(), startSamlTestIdp()]);
});
afterAll(async () => {
  await idp?.close();
  await store?.dispose();
});

const signingCertificate = async (base: string) => {
  const res = await fetch(`${base}/self-service/methods/saml/metadata/corp`);
  expect(res.status).toBe(200);
  const xml = await res.text();
  expect(xml).not.toMatch(/PRIVATE KEY/);
  return /<KeyDescriptor use="signing">[\s\S]*?<ds:X509Certificate>([^<]+)<\/ds:X509Certificate>/.exec(xml)?.[1];
};

describe("a project's SAML service-provider key", () => {
  it("survives a restart, and is the project's own", async () => {
    const first = await startTestStack(store.options);
    let base: string;
    let certificate: string | undefined;
    try {
      const owner = await newUser(first, 'Keys');
      const addProvider = async (name: string) => {
        const app = await projectWithKey(first, owner, name);
        const plan = await fetch(`${first.url}/local/plan`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ project_id: app.id, plan: 'enterprise' }) });
        expect(plan.status).toBe(204);
        const provider = { id: 'corp', raw_idp_metadata_xml: idp.metadataXml };
        await owner.projects.patchProject({
          projectId: app.id,
          jsonPatch: [{ op: 'add', path: '/services/identity/config/selfservice', value: { methods: { saml: { enabled: true, config: { providers: [provider] } } } } }],
        });
        return app;
      };
      const [app, other] = [await addProvider('Kept key'), await addProvider('Other key')];
      base = app.base;
      certificate = await signingCertificate(base);
      expect(certificate).toMatch(/^MII/);
      expect(await signingCertificate(other.base)).not.toBe(certificate);
    } finally {
      await first.close();
    }

    const second = await startTestStack(store.options);
    try {
      expect(await signingCertificate(base.replace(first.url, second.url))).toBe(certificate);
    } finally {
      await second.close();
    }
  }, 120_000);
});
