import { TRPCError } from '@trpc/server';
import type { z } from 'zod';
import {
  authenticationForm,
  browserRedirectsForm,
  mfaForm,
  passwordlessForm,
  projectConfigInput,
  projectConfigOutput,
  recoveryForm,
  sessionsForm,
  setAuthenticationInput,
  setBrowserRedirectsInput,
  setMfaInput,
  setPasswordlessInput,
  setRecoveryInput,
  setSessionsInput,
  setUiInput,
  setVerificationInput,
  uiForm,
  verificationForm,
  type ProjectConfig,
  type ProjectConfigSection,
} from '../../../shared/schemas/project-config';
import type { Context } from '../../trpc/context';
import { projectProcedure, router } from '../../trpc/init';
import { type IdentityConfigRead, type Json, isObject, readIdentityConfig, valueAt } from './identity-config';
import { FIELDS, type FieldMapping } from './fields';


const FORMS: { [S in ProjectConfigSection]: z.ZodObject } = {
  authentication: authenticationForm,
  passwordless: passwordlessForm,
  mfa: mfaForm,
  recovery: recoveryForm,
  verification: verificationForm,
  sessions: sessionsForm,
  browserRedirects: browserRedirectsForm,
  ui: uiForm,
};

/** A field as the page shows it: the stored value when it is one the page accepts, else the default. */
function fieldValue(config: Json, form: z.ZodObject, key: string, mapping: FieldMapping): unknown {
  const raw = valueAt(config, mapping.path);
  const value = mapping.fromConfig ? mapping.fromConfig(raw) : raw;
  const schema = form.shape[key] as z.ZodType | undefined;
  return value !== undefined && schema?.safeParse(value).success ? value : mapping.fallback;
}

function view(read: IdentityConfigRead): ProjectConfig {
  const out: Record<string, unknown> = { revisionId: read.revisionId };
  for (const section of Object.keys(FIELDS) as ProjectConfigSection[]) {
    const fields = FIELDS[section] as Record<string, FieldMapping>;
    out[section] = Object.fromEntries(Object.entries(fields).map(([key, mapping]) => [key, fieldValue(read.config, FORMS[section], key, mapping)]));
  }
  return out as ProjectConfig;
}

type Op = { op: 'add'; path: string; value: unknown } | { op: 'remove'; path: string };
const pointer = (path: readonly string[]) => `/services/identity/config/${path.map((k) => k.replace(/~/g, '~0').replace(/\//g, '~1')).join('/')}`;

/**
 * The JSON patch that writes the changed fields of one section: parents that do not exist yet are added,
 * a field emptied on the page is removed, and nothing else of the configuration is touched.
 */
function patchOf(read: IdentityConfigRead, section: ProjectConfigSection, changes: Json): Op[] {
  const ops: Op[] = [];
  if (!read.hasIdentity) ops.push({ op: 'add', path: '/services/identity', value: { config: {} } });
  else if (!read.hasConfig) ops.push({ op: 'add', path: '/services/identity/config', value: {} });
  const draft: Json = structuredClone(read.config);
  const fields = FIELDS[section] as Record<string, FieldMapping>;
  for (const [key, mapping] of Object.entries(fields)) {
    const value = changes[key];
    if (value === undefined) continue;
    const parents = mapping.path.slice(0, -1);
    const leaf = mapping.path[mapping.path.length - 1]!;
    if (mapping.empty && value === '') {
      const parent = valueAt(draft, parents);
      if (isObject(parent) && leaf in parent) {
        ops.push({ op: 'remove', path: pointer(mapping.path) });
        delete parent[leaf];
      }
      continue;
    }
    let at = draft;
    for (const [i, part] of parents.entries()) {
      if (!isObject(at[part])) {
        at[part] = {};
        ops.push({ op: 'add', path: pointer(parents.slice(0, i + 1)), value: {} });
      }
      at = at[part] as Json;
    }
    const stored = mapping.toConfig ? mapping.toConfig(value) : value;
    at[leaf] = stored;
    ops.push({ op: 'add', path: pointer(mapping.path), value: stored });
  }
  return ops;
}

const stale = () =>
  new TRPCError({ code: 'CONFLICT', message: 'The project was changed elsewhere since you opened it. Reload to see the current configuration, then make your change again.' });

/**
 * Writes one section as a JSON patch on the revision it was read from: every other field of the project
 * survives, and a save from a revision that is no longer current answers CONFLICT instead of overwriting.
 */
async function writeSection(ctx: Context, projectId: string, section: ProjectConfigSection, input: Json & { revisionId?: string | undefined }): Promise<ProjectConfig> {
  const read = await readIdentityConfig(ctx, projectId);
  if (input.revisionId && input.revisionId !== read.revisionId) throw stale();
  const { projectId: _projectId, revisionId: _revisionId, ...changes } = input;
  checkCodeUse(view(read), section, changes);
  const ops = patchOf(read, section, changes);
  if (ops.length > 0) await ctx.deps.backoffice.patchProjectWithRevision(ctx.call, projectId, read.revisionId, ops);
  return view(await readIdentityConfig(ctx, projectId));
}

/**
 * Kratos' configuration schema lets one-time codes either sign users in (`passwordless_enabled`) or serve as
 * their second factor (`mfa_enabled`), never both: a save that would turn on the one while the other is on is refused.
 */
function checkCodeUse(current: ProjectConfig, section: ProjectConfigSection, changes: Json): void {
  const passwordless = section === 'passwordless' && changes.code_passwordless_enabled !== undefined ? changes.code_passwordless_enabled : current.passwordless.code_passwordless_enabled;
  const mfa = section === 'mfa' && changes.code_mfa_enabled !== undefined ? changes.code_mfa_enabled : current.mfa.code_mfa_enabled;
  if (passwordless === true && mfa === true) {
    throw new TRPCError({
      code: 'BAD_REQUEST',
      message:
        section === 'mfa'
          ? 'One-time codes already sign users in without a password. Turn sign-in codes off on the Passwordless page before using codes as a second factor.'
          : 'One-time codes are already a second factor. Turn them off on the Two-factor authentication page before letting codes sign users in.',
    });
  }
}

const write = projectProcedure('backoffice.project.write');

/** The identity settings of a project (spec §2 authentication and project-settings pages), one setter per page. */
export const projectConfigRouter = router({
  get: projectProcedure('backoffice.project.read')
    .input(projectConfigInput)
    .output(projectConfigOutput)
    .query(async ({ ctx }) => view(await readIdentityConfig(ctx, ctx.projectId))),
  setAuthentication: write.input(setAuthenticationInput).output(projectConfigOutput).mutation(({ ctx, input }) => writeSection(ctx, ctx.projectId, 'authentication', input)),
  setPasswordless: write.input(setPasswordlessInput).output(projectConfigOutput).mutation(({ ctx, input }) => writeSection(ctx, ctx.projectId, 'passwordless', input)),
  setMfa: write.input(setMfaInput).output(projectConfigOutput).mutation(({ ctx, input }) => writeSection(ctx, ctx.projectId, 'mfa', input)),
  setRecovery: write.input(setRecoveryInput).output(projectConfigOutput).mutation(({ ctx, input }) => writeSection(ctx, ctx.projectId, 'recovery', input)),
  setVerification: write.input(setVerificationInput).output(projectConfigOutput).mutation(({ ctx, input }) => writeSection(ctx, ctx.projectId, 'verification', input)),
  setSessions: write.input(setSessionsInput).output(projectConfigOutput).mutation(({ ctx, input }) => writeSection(ctx, ctx.projectId, 'sessions', input)),
  setBrowserRedirects: write.input(setBrowserRedirectsInput).output(projectConfigOutput).mutation(({ ctx, input }) => writeSection(ctx, ctx.projectId, 'browserRedirects', input)),
  setUi: write.input(setUiInput).output(projectConfigOutput).mutation(({ ctx, input }) => writeSection(ctx, ctx.projectId, 'ui', input)),
});
