import type { TRPCError } from '@trpc/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setPlan, startSamlTestIdp, type SamlTestIdp } from '../test-support/localstack-data';
import { callerFor, rejection, startTestStack, testDeps, type TestStack } from '../test-support/bff';
import { registerUser } from '../test-support/users';

let stack: TestStack;
let idp: SamlTestIdp;
let owner: ReturnType<typeof callerFor>;
let stranger: ReturnType<typeof callerFor>;
let projectId: string;

const errorId = (error: TRPCError) => (error.cause as { errorId?: string } | undefined)?.errorId;

beforeAll(async () => {
  [stack, idp] = await Promise.all([startTestStack(), startSamlTestIdp()]);
  const deps = testDeps(stack.url);
  const [a, b] = await Promise.all([registerUser(stack.url, {}), registerUser(stack.url, {})]);
  owner = callerFor(deps, a.cookie);
  stranger = callerFor(deps, b.cookie);
  projectId = (await owner.projects.create({ name: 'SAML', environment: 'dev' })).id;
});

afterAll(async () => {
  await idp?.close();
  await stack?.close();
});

describe('samlProviders', () => {
  it('is refused on a plan without saml_sp (feature_not_available naming the feature), and nothing is written', async () => {
    const refused = await rejection(owner.samlProviders.set({ projectId, id: 'corp', idp_metadata_xml: idp.metadataXml, create: true }));
    expect(refused.code).toBe('FORBIDDEN');
    expect(errorId(refused)).toBe('feature_not_available');
    expect((refused.cause as { details?: { feature?: string } }).details?.feature).toBe('saml_sp');
    expect((await owner.samlProviders.list({ projectId })).providers).toEqual([]);
    expect(await owner.quota.get({ projectId, feature: 'saml_sp' })).toMatchObject({ feature_available: false });
  });

  it('reads metadata from XML or from a URL on this machine, and says what is wrong with metadata it cannot use', async () => {
    const fromXml = await owner.samlProviders.parseMetadata({ projectId, xml: idp.metadataXml });
    expect(fromXml).toMatchObject({ entity_id: idp.entityId, sso_url: `${idp.url}/sso` });
    expect(new Date(fromXml.certificate_expiry).getTime()).toBeGreaterThan(Date.now() + 300 * 24 * 3600_000);
    expect(fromXml.valid_to).toEqual([fromXml.certificate_expiry]);
    expect(await owner.samlProviders.parseMetadata({ projectId, url: idp.metadataUrl })).toEqual(fromXml);

    const bad = [
      [{ xml: '<html><body>not metadata</body></html>' }, 'no SAML 2.0 EntityDescriptor'],
      [{ xml: idp.metadataXml.replace(/<ds:X509Certificate>[^<]+<\/ds:X509Certificate>/, '') }, 'no signing certificate'],
      [{ xml: '<md:EntityDescriptor' }, 'not well-formed'],
      [{ url: 'https://idp.example.com/metadata' }, 'must point to this machine'],
      [{ url: `${idp.url}/nothing-here` }, 'answered 404'],
    ] as const;
    for (const [input, message] of bad) {
      const error = await rejection(owner.samlProviders.parseMetadata({ projectId, ...input }));
      expect(error.code).toBe('BAD_REQUEST');
      expect(error.message).toContain(message);
    }
  });

  it('adds a provider from its metadata URL, shows its summary, edits it keeping what the form does not show, and deletes it', async () => {
    await setPlan(stack.stack.db, { kind: 'project', project: { id: projectId, workspace_id: null } }, 'enterprise');
    const added = await owner.samlProviders.set({ projectId, id: 'corp', label: 'Corp SSO', idp_metadata_url: idp.metadataUrl, attributes_map: { email: 'mail' }, create: true });
    expect(added).toMatchObject({
      id: 'corp',
      label: 'Corp SSO',
      idp_metadata_url: idp.metadataUrl,
      metadata: { entity_id: idp.entityId, sso_url: `${idp.url}/sso` },
      attributes_map: { email: 'mail' },
      organization_id: null,
    });
    // Limits counts the providers configured.
    expect((await owner.quota.all({ projectId })).find((q) => q.feature === 'saml_sp')?.used).toBe(1);
    const again = await rejection(owner.samlProviders.set({ projectId, id: 'corp', idp_metadata_xml: idp.metadataXml, create: true }));
    expect(again.code).toBe('CONFLICT');

    // Ory's shape in the project, with the metadata itself; a field the console does not show survives an edit.
    const config = (await owner.projects.configuration({ projectId })) as any;
    const stored = config.services.identity.config.selfservice.methods.saml.config.providers[0];
    expect(stored).toMatchObject({ id: 'corp', raw_idp_metadata_xml: idp.metadataXml, idp_entity_id: idp.entityId, idp_metadata_url: idp.metadataUrl });
    await owner.projects.patch({
      projectId,
      patch: [{ op: 'add', path: '/services/identity/config/selfservice/methods/saml/config/providers/0/update_identity_on_login', value: 'never' }],
    });
    const edited = await owner.samlProviders.set({ projectId, id: 'corp', label: 'Corp', attributes_map: { email: 'mail', first_name: 'givenName' } });
    expect(edited).toMatchObject({ label: 'Corp', attributes_map: { email: 'mail', first_name: 'givenName' }, metadata: { entity_id: idp.entityId } });
    const after = ((await owner.projects.configuration({ projectId })) as any).services.identity.config.selfservice.methods.saml.config.providers[0];
    expect(after).toMatchObject({ update_identity_on_login: 'never', raw_idp_metadata_xml: idp.metadataXml });

    // Metadata that cannot be used is refused and the stored one stays.
    const bad = await rejection(owner.samlProviders.set({ projectId, id: 'corp', idp_metadata_xml: '<nope/>' }));
    expect(bad.code).toBe('BAD_REQUEST');
    expect((await owner.samlProviders.get({ projectId, id: 'corp' })).metadata?.entity_id).toBe(idp.entityId);

    expect((await owner.samlProviders.list({ projectId })).providers.map((p) => p.id)).toEqual(['corp']);
    expect(await owner.samlProviders.delete({ projectId, id: 'corp' })).toEqual({ ok: true });
    expect((await owner.quota.all({ projectId })).find((q) => q.feature === 'saml_sp')?.used).toBe(0);
    expect((await rejection(owner.samlProviders.get({ projectId, id: 'corp' }))).code).toBe('NOT_FOUND');
    expect((await rejection(owner.samlProviders.delete({ projectId, id: 'corp' }))).code).toBe('NOT_FOUND');
  });

  it("refuses another user every procedure on the owner's project, one call at a time", async () => {
    await owner.samlProviders.set({ projectId, id: 'mine', idp_metadata_xml: idp.metadataXml, create: true });
    const attempts: (() => Promise<unknown>)[] = [
      () => stranger.samlProviders.list({ projectId }),
      () => stranger.samlProviders.get({ projectId, id: 'mine' }),
      () => stranger.samlProviders.set({ projectId, id: 'mine', label: 'Taken' }),
      () => stranger.samlProviders.set({ projectId, id: 'theirs', idp_metadata_xml: idp.metadataXml, create: true }),
      () => stranger.samlProviders.delete({ projectId, id: 'mine' }),
      () => stranger.samlProviders.parseMetadata({ projectId, url: idp.metadataUrl }),
    ];
    for (const attempt of attempts) {
      expect(['FORBIDDEN', 'NOT_FOUND']).toContain((await rejection(attempt())).code);
    }
    expect((await owner.samlProviders.list({ projectId })).providers.map((p) => ({ id: p.id, label: p.label }))).toEqual([{ id: 'mine', label: '' }]);
  });
});
