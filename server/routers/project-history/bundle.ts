import type { Identity, OAuth2Client, Relationship } from '@ory/client';
import { TRPCError } from '@trpc/server';
import { fillSecrets, redactedSecretPaths, redactSecrets } from '../../../shared/domain/config-export';
import { formatNumber } from '../../../shared/domain/format';
import { declaredSchemas, textOfUrl } from '../../../shared/domain/identity-schema-config';
import { BUNDLE_FORMAT, BUNDLE_LIMITS, BUNDLE_MAX_BYTES, BUNDLE_PART_LABELS, BUNDLE_VERSION, remapSchemaIds, tooMany, type BundlePart } from '../../../shared/domain/project-bundle';
import { describeProblems, parseSchemaText } from '../../../shared/domain/schema-problems';
import { legacyNamespacesOf, oplOfServices } from '../../../shared/permissions/config';
import { parseOpl } from '../../../shared/permissions/opl';
import { themeColors } from '../../../shared/schemas/branding';
import {
  bundleExportInput,
  bundleExportOutput,
  bundleImportInput,
  bundleImportOutput,
  type BundleImportResult,
  type ProjectBundle,
} from '../../../shared/schemas/project-bundle';
import type { Context } from '../../trpc/context';
import { codeForUpstream } from '../../trpc/errors';
import { dataPlaneProcedure } from '../../trpc/init';
import { UpstreamError } from '../../upstream/errors';
import type { ProjectApis } from '../../upstream/project-apis';
import { nextTokenOf } from '../identities/paging';

type Ctx = Context & { projectId: string; apis: ProjectApis };
type JsonObject = Record<string, unknown>;

/** Fields of a client Hydra sets itself (or that are secret): never in a file, never sent on create. */
const CLIENT_READ_ONLY = ['client_secret', 'created_at', 'updated_at', 'registration_access_token', 'registration_client_uri'] as const;
/** Identities are written in batches of this many (the identity import's own limit). */
const IDENTITY_BATCH = 1000;
const TUPLE_BATCH = 500;

const isObject = (v: unknown): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);
const bad = (message: string) => new TRPCError({ code: 'BAD_REQUEST', message });
const tooLarge = (part: BundlePart) => new TRPCError({ code: 'PAYLOAD_TOO_LARGE', message: tooMany(part) });
const listed = (items: string[]) => items.slice(0, 5).join(', ') + (items.length > 5 ? ` and ${items.length - 5} more` : '');

/** Every item of a paged upstream list, refused once there are more than `limit`. */
async function readAll<T>(part: BundlePart, limit: number, page: (token: string | undefined) => Promise<{ items: T[]; next: string | null }>): Promise<T[]> {
  const all: T[] = [];
  let token: string | undefined;
  do {
    const { items, next } = await page(token);
    all.push(...items);
    if (all.length > limit) throw tooLarge(part);
    token = next ?? undefined;
  } while (token);
  return all;
}

const clientsOf = (apis: ProjectApis, limit: number) =>
  readAll<OAuth2Client>('oauth2_clients', limit, async (pageToken) => {
    const res = await apis.oauth2.listOAuth2Clients({ pageSize: 500, ...(pageToken ? { pageToken } : {}) });
    return { items: res.data, next: nextTokenOf(res.headers as JsonObject) };
  });

const tuplesOf = (apis: ProjectApis, limit: number) =>
  readAll<Relationship>('relation_tuples', limit, async (pageToken) => {
    const { data } = await apis.relationship.getRelationships({ pageSize: 1000, ...(pageToken ? { pageToken } : {}) });
    return { items: data.relation_tuples ?? [], next: data.next_page_token || null };
  });

const identitiesOf = (apis: ProjectApis, limit: number) =>
  readAll<Identity>('identities', limit, async (pageToken) => {
    const res = await apis.identity.listIdentities({ pageSize: 500, includeCredential: ['password'], ...(pageToken ? { pageToken } : {}) });
    return { items: res.data, next: nextTokenOf(res.headers as JsonObject) };
  });

const tupleOf = (t: Relationship) => ({
  namespace: t.namespace,
  object: t.object,
  relation: t.relation,
  ...(t.subject_set ? { subject_set: { namespace: t.subject_set.namespace, object: t.subject_set.object, relation: t.subject_set.relation } } : { subject_id: t.subject_id ?? '' }),
});

function identityOf(i: Identity) {
  const hash = (i.credentials?.password?.config as { hashed_password?: unknown } | undefined)?.hashed_password;
  return {
    schema_id: i.schema_id,
    traits: (isObject(i.traits) ? i.traits : {}) as JsonObject,
    ...(i.state === 'active' || i.state === 'inactive' ? { state: i.state as 'active' | 'inactive' } : {}),
    ...(i.metadata_public != null ? { metadata_public: i.metadata_public as JsonObject } : {}),
    ...(i.metadata_admin != null ? { metadata_admin: i.metadata_admin as JsonObject } : {}),
    ...(typeof hash === 'string' && hash !== '' ? { password_hash: hash } : {}),
  };
}

/** The whole project as one file (format in shared/domain/project-bundle.ts): refused when a part has more objects than a file holds. */
export const exportBundle = dataPlaneProcedure('backoffice.project.read')
  .input(bundleExportInput)
  .output(bundleExportOutput)
  .query(async ({ ctx, input }) => {
    const { backoffice } = ctx.deps;
    const [project, managed, branding, clients, tuples, identities] = await Promise.all([
      backoffice.getProject(ctx.call, ctx.projectId),
      backoffice.identitySchemas.list(ctx.call, ctx.projectId),
      backoffice.branding.get(ctx.call, ctx.projectId),
      clientsOf(ctx.apis, BUNDLE_LIMITS.oauth2_clients),
      tuplesOf(ctx.apis, BUNDLE_LIMITS.relation_tuples),
      input.includeIdentities ? identitiesOf(ctx.apis, BUNDLE_LIMITS.identities) : Promise.resolve(null),
    ]);
    if (managed.length > BUNDLE_LIMITS.identity_schemas) throw tooLarge('identity_schemas');
    if (branding.themes.length > BUNDLE_LIMITS.themes) throw tooLarge('themes');
    const services = redactSecrets(project.services as JsonObject);
    const file = {
      format: BUNDLE_FORMAT as typeof BUNDLE_FORMAT,
      version: BUNDLE_VERSION as typeof BUNDLE_VERSION,
      exported_at: new Date().toISOString(),
      name: project.name,
      services,
      secrets: redactedSecretPaths(services),
      identity_schemas: managed.map((s) => ({ id: s.id, name: s.name, text: textOfUrl(s.blob_url) ?? '{}' })),
      themes: branding.themes.map((t) => ({
        name: t.name,
        ...(t.logo_url ? { logo_url: t.logo_url, ...(t.logo_type ? { logo_type: t.logo_type } : {}) } : {}),
        ...(t.favicon_url ? { favicon_url: t.favicon_url, ...(t.favicon_type ? { favicon_type: t.favicon_type } : {}) } : {}),
        colors: themeColors(t),
        active: t.id === branding.default_theme.id,
      })),
      oauth2_clients: clients.map((c) => {
        const copy: JsonObject = { ...c };
        for (const field of CLIENT_READ_ONLY) delete copy[field];
        return copy as { client_id: string };
      }),
      relation_tuples: tuples.map(tupleOf),
      ...(identities ? { identities: identities.map(identityOf) } : {}),
    };
    // A file the console could not take back is refused here rather than found out on import.
    const bytes = Buffer.byteLength(JSON.stringify(file, null, 2));
    if (bytes > BUNDLE_MAX_BYTES) {
      throw new TRPCError({
        code: 'PAYLOAD_TOO_LARGE',
        message: `The project file would be ${formatNumber(Math.ceil(bytes / 1024))} KiB; the console imports files of at most ${formatNumber(BUNDLE_MAX_BYTES / 1024)} KiB. ${input.includeIdentities ? 'Export it without identities and move them separately' : 'Use smaller theme images or fewer relationships'}.`,
      });
    }
    return file;
  });

/** Everything about a file that can be checked before anything is written; BAD_REQUEST naming the first problem. */
async function checkFile(ctx: Ctx, file: ProjectBundle, services: JsonObject): Promise<void> {
  const dup = (values: string[]) => values.filter((v, i) => values.indexOf(v) !== i);
  const dupSchemas = dup(file.identity_schemas.map((s) => s.id));
  if (dupSchemas.length > 0) throw bad(`identity_schemas: the id ${listed(dupSchemas)} is given more than once.`);
  // A project's managed schemas have names of their own.
  const dupNames = dup(file.identity_schemas.map((s) => s.name));
  if (dupNames.length > 0) throw bad(`identity_schemas: the name ${listed(dupNames)} is given more than once.`);
  const dupClients = dup(file.oauth2_clients.map((c) => c.client_id));
  if (dupClients.length > 0) throw bad(`oauth2_clients: the client_id ${listed(dupClients)} is given more than once.`);
  if (file.themes.filter((t) => t.active).length > 1) throw bad('themes: at most one theme is active.');

  for (const [i, s] of file.identity_schemas.entries()) {
    const parsed = parseSchemaText(s.text);
    if (!parsed.ok) throw bad(`identity_schemas[${i}] (“${s.name}”) is not valid. ${describeProblems(parsed.problems)}`);
    const result = await ctx.deps.backoffice.identitySchemas.validate(ctx.call, { name: s.name, data: parsed.schema });
    if (!result.valid) throw bad(`identity_schemas[${i}] (“${s.name}”) is not valid: ${result.message ?? 'the identity service refused it'}.`);
  }

  // Relationships name namespaces of the file's own permission rules.
  const opl = oplOfServices(services);
  if (opl !== null) {
    const { data } = await ctx.apis.relationship.checkOplSyntax({ body: opl });
    const first = data.errors?.[0];
    if (first) throw bad(`The permission rules in services.permission have problems: ${first.message ?? 'not valid'}.`);
  }
  const namespaces = new Set([...(opl !== null ? parseOpl(opl).namespaces.map((n) => n.name) : []), ...legacyNamespacesOf(services)]);
  for (const [i, t] of file.relation_tuples.entries()) {
    for (const ns of [t.namespace, t.subject_set?.namespace]) {
      if (ns !== undefined && !namespaces.has(ns)) throw bad(`relation_tuples[${i}]: the namespace “${ns.slice(0, 80)}” is not one of the file’s permission rules.`);
    }
  }

  // Identities name a schema of the file (a managed or a declared one), the built-in one, or one of Ory's presets.
  const known = new Set([...file.identity_schemas.map((s) => s.id), ...declaredSchemas(services).map((e) => e.id), 'default']);
  for (const [i, identity] of (file.identities ?? []).entries()) {
    if (!known.has(identity.schema_id) && !identity.schema_id.startsWith('preset://')) throw bad(`identities[${i}]: the schema “${identity.schema_id.slice(0, 80)}” is not one of the file’s identity schemas.`);
  }
}

/**
 * What in the project would collide with the file: CONFLICT naming it, before anything is written. Answers the
 * managed schemas the project has already, same name and same text (left by an import that failed later, since
 * schemas cannot be deleted), by the file's id: they are used instead of made again.
 */
async function checkTarget(ctx: Ctx, file: ProjectBundle, currentRevisionId: string): Promise<Map<string, string>> {
  const project = await ctx.deps.backoffice.getProject(ctx.call, ctx.projectId);
  if (project.revision_id !== currentRevisionId) {
    throw new TRPCError({ code: 'CONFLICT', message: 'The project’s configuration changed since you looked. Reload the page and import again.' });
  }
  const reuse = new Map<string, string>();
  if (file.identity_schemas.length > 0) {
    const existing = await ctx.deps.backoffice.identitySchemas.list(ctx.call, ctx.projectId);
    for (const s of file.identity_schemas) {
      const same = existing.find((e) => e.name === s.name);
      if (!same) continue;
      if (textOfUrl(same.blob_url) !== s.text) {
        throw new TRPCError({ code: 'CONFLICT', message: `This project already has another identity schema named “${s.name}”. Import into a project without it.` });
      }
      reuse.set(s.id, same.id);
    }
  }
  if (file.oauth2_clients.length > 0) {
    const existing = new Set((await clientsOf(ctx.apis, Number.MAX_SAFE_INTEGER)).map((c) => c.client_id));
    const taken = file.oauth2_clients.map((c) => c.client_id).filter((id) => existing.has(id));
    if (taken.length > 0) {
      throw new TRPCError({ code: 'CONFLICT', message: `This project already has OAuth2 clients with the client_id ${listed(taken)}. Import into a project without them.` });
    }
  }
  if (file.relation_tuples.length > 0) {
    const { data } = await ctx.apis.relationship.getRelationships({ pageSize: 1 });
    if ((data.relation_tuples ?? []).length > 0) {
      throw new TRPCError({ code: 'CONFLICT', message: 'This project already has relationships. Import the file into a project without any.' });
    }
  }
  if ((file.identities ?? []).length > 0) {
    const { data } = await ctx.apis.identity.listIdentities({ pageSize: 1 });
    if (data.length > 0) throw new TRPCError({ code: 'CONFLICT', message: 'This project already has identities. Import the file into a project without any.' });
  }
  return reuse;
}

/** The reason a write failed, in words a caller can act on, and its tRPC code. */
function failureOf(err: unknown): { code: TRPCError['code']; reason: string } {
  if (err instanceof UpstreamError) {
    const code = codeForUpstream(err);
    const clientError = err.kind === 'http' && err.status >= 400 && err.status < 500;
    return { code, reason: clientError ? err.reason : 'the service did not answer; try again in a moment' };
  }
  if (err instanceof TRPCError) return { code: err.code, reason: err.message };
  return { code: 'INTERNAL_SERVER_ERROR', reason: 'something went wrong on our side' };
}

/**
 * A project file imported into this project (meant for a new or empty one). Everything that can be checked is
 * checked before anything is written: the file, the secrets it left out, the identity schemas and permission
 * rules it holds, and what in the project would collide with it (CONFLICT). The parts are then written in the
 * order they depend on each other; when one fails, what the import wrote is undone (the configuration goes back
 * to the revision before) and the error says which part failed. Managed identity schemas cannot be deleted:
 * the error says so when some were created.
 */
export const importBundle = dataPlaneProcedure('backoffice.project.write')
  .input(bundleImportInput)
  .output(bundleImportOutput)
  .mutation(async ({ ctx, input }) => {
    const { file } = input;
    const { backoffice } = ctx.deps;
    const { filled, missing } = fillSecrets(file.services, input.secrets ?? {});
    if (missing.length > 0) throw bad(`Give the secret the export left out at ${missing.join(', ')}.`);
    await checkFile(ctx, file, filled);
    const schemaIds = await checkTarget(ctx, file, input.currentRevisionId);

    const imported: BundleImportResult['imported'] = { identity_schemas: 0, themes: 0, oauth2_clients: 0, relation_tuples: 0, identities: 0 };
    const undo: { part: string; run: () => Promise<unknown> }[] = [];
    let step = 'identity schemas';
    let createdSchemas = 0;
    try {
      imported.identity_schemas = schemaIds.size;
      for (const s of file.identity_schemas) {
        if (schemaIds.has(s.id)) continue;
        const parsed = parseSchemaText(s.text);
        if (!parsed.ok) throw bad(`The identity schema “${s.name}” is not valid.`);
        const created = await backoffice.identitySchemas.create(ctx.call, ctx.projectId, { name: s.name, data: parsed.schema, text: s.text });
        schemaIds.set(s.id, created.id);
        imported.identity_schemas += 1;
        createdSchemas += 1;
      }

      step = 'configuration';
      await backoffice.patchProjectWithRevision(ctx.call, ctx.projectId, input.currentRevisionId, [
        { op: 'replace', path: '/name', value: file.name },
        { op: 'replace', path: '/services', value: remapSchemaIds(filled, schemaIds) },
      ]);
      const afterConfig = (await backoffice.getProject(ctx.call, ctx.projectId)).revision_id;
      undo.push({
        part: 'configuration',
        run: async () => {
          const now = (await backoffice.getProject(ctx.call, ctx.projectId)).revision_id;
          await backoffice.projectHistory.restore(ctx.call, ctx.projectId, input.currentRevisionId, now);
        },
      });
      let revisionId = afterConfig;

      step = 'branding themes';
      if (file.themes.length > 0) {
        const branding = await backoffice.branding.get(ctx.call, ctx.projectId);
        const base = branding.themes[0]!;
        const wasActive = branding.default_theme.id;
        const bodyOf = (t: ProjectBundle['themes'][number]) => ({
          name: t.name,
          logo_url: t.logo_url ?? '',
          ...(t.logo_url && t.logo_type ? { logo_type: t.logo_type } : {}),
          favicon_url: t.favicon_url ?? '',
          ...(t.favicon_url && t.favicon_type ? { favicon_type: t.favicon_type } : {}),
          theme: t.colors,
        });
        // The file's first theme is its project's built-in one: it restyles this project's built-in theme.
        const [first, ...rest] = file.themes;
        await backoffice.branding.updateTheme(ctx.call, ctx.projectId, base.id, bodyOf(first!));
        undo.push({
          part: 'branding themes',
          run: () =>
            backoffice.branding.updateTheme(ctx.call, ctx.projectId, base.id, {
              name: base.name,
              logo_url: base.logo_url ?? '',
              ...(base.logo_url && base.logo_type ? { logo_type: base.logo_type } : {}),
              favicon_url: base.favicon_url ?? '',
              ...(base.favicon_url && base.favicon_type ? { favicon_type: base.favicon_type } : {}),
              theme: themeColors(base),
            }),
        });
        imported.themes += 1;
        const ids = [base.id];
        for (const t of rest) {
          const created = await backoffice.branding.createTheme(ctx.call, ctx.projectId, bodyOf(t));
          undo.push({ part: 'branding themes', run: () => backoffice.branding.deleteTheme(ctx.call, ctx.projectId, created.id) });
          ids.push(created.id);
          imported.themes += 1;
        }
        const active = file.themes.findIndex((t) => t.active);
        if (active >= 0 && ids[active] !== wasActive) {
          await backoffice.branding.activate(ctx.call, ctx.projectId, ids[active]!);
          undo.push({ part: 'branding themes', run: () => backoffice.branding.activate(ctx.call, ctx.projectId, wasActive) });
        }
      }

      step = 'OAuth2 clients';
      const clientSecrets: BundleImportResult['clientSecrets'] = [];
      for (const c of file.oauth2_clients) {
        const body: JsonObject = { ...c };
        for (const field of CLIENT_READ_ONLY) delete body[field];
        const { data } = await ctx.apis.oauth2.createOAuth2Client({ oAuth2Client: body as OAuth2Client });
        const id = data.client_id ?? c.client_id;
        undo.push({ part: 'OAuth2 clients', run: () => ctx.apis.oauth2.deleteOAuth2Client({ id }) });
        clientSecrets.push({ clientId: id, clientSecret: data.client_secret || null });
        imported.oauth2_clients += 1;
      }

      step = 'relationships';
      for (let i = 0; i < file.relation_tuples.length; i += TUPLE_BATCH) {
        const batch = file.relation_tuples.slice(i, i + TUPLE_BATCH);
        await ctx.apis.relationship.patchRelationships({ relationshipPatch: batch.map((t) => ({ action: 'insert', relation_tuple: t })) });
        undo.push({ part: 'relationships', run: () => ctx.apis.relationship.patchRelationships({ relationshipPatch: batch.map((t) => ({ action: 'delete', relation_tuple: t })) }) });
        imported.relation_tuples += batch.length;
      }

      step = 'identities';
      const identities = file.identities ?? [];
      for (let i = 0; i < identities.length; i += IDENTITY_BATCH) {
        const batch = identities.slice(i, i + IDENTITY_BATCH);
        const res = await ctx.apis.identity.batchPatchIdentities({
          patchIdentitiesBody: {
            identities: batch.map((identity) => ({
              create: {
                schema_id: schemaIds.get(identity.schema_id) ?? identity.schema_id,
                traits: identity.traits,
                ...(identity.state ? { state: identity.state } : {}),
                ...(identity.metadata_public !== undefined ? { metadata_public: identity.metadata_public } : {}),
                ...(identity.metadata_admin !== undefined ? { metadata_admin: identity.metadata_admin } : {}),
                ...(identity.password_hash ? { credentials: { password: { config: { hashed_password: identity.password_hash } } } } : {}),
              },
            })),
          },
        });
        const results = res.data.identities ?? [];
        for (const r of results) {
          const id = r.identity;
          if (r.action === 'create' && id) undo.push({ part: 'identities', run: () => ctx.apis.identity.deleteIdentity({ id }) });
        }
        const refused = results.flatMap((r, j) => {
          const error = (r as { error?: { message?: string; reason?: string } }).error;
          return r.action === 'create' && !error ? [] : [`identities[${i + j}]: ${error?.reason ?? error?.message ?? 'not imported'}`];
        });
        if (refused.length > 0 || results.length !== batch.length) {
          throw new TRPCError({ code: 'BAD_REQUEST', message: refused.length > 0 ? listed(refused) : 'the identity service did not answer for every identity' });
        }
        imported.identities += batch.length;
      }

      revisionId = (await backoffice.getProject(ctx.call, ctx.projectId)).revision_id;
      const notes: string[] = [];
      const withoutPassword = identities.filter((i) => !i.password_hash).length;
      if (identities.length > 0) {
        notes.push(
          `Identities keep their passwords only as hashes; ${withoutPassword === 0 ? 'every one had a password' : `${withoutPassword} without a password`} — other credentials (social sign-in, passkeys, one-time codes) were not carried over.`,
        );
      }
      if (file.identities === undefined) notes.push('The file holds no identities: it was exported without them.');
      if (file.oauth2_clients.length > 0) notes.push('The OAuth2 clients have new secrets: copy them now, they are not shown again.');
      return { revisionId, imported, clientSecrets, notes };
    } catch (err) {
      const { code, reason } = failureOf(err);
      const failedUndo: string[] = [];
      for (const u of undo.reverse()) {
        // Each undo is tried even when an earlier one failed: as much as possible goes back.
        await u.run().catch(() => failedUndo.push(u.part));
      }
      const left = [
        ...(createdSchemas > 0 ? [`${createdSchemas} ${BUNDLE_PART_LABELS.identity_schemas[createdSchemas === 1 ? 0 : 1]} (they cannot be deleted; importing the file again uses them)`] : []),
        ...[...new Set(failedUndo)],
      ];
      throw new TRPCError({
        code,
        message: `Importing the ${step} failed: ${reason.replace(/\.$/, '')}. ${left.length > 0 ? `What was imported before was undone, except: ${left.join(', ')}.` : 'What was imported before was undone.'}`,
      });
    }
  });
