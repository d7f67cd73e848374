import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { formatDateTime } from '../../shared/domain/format';
import { socialRedirectUri } from '../../shared/domain/social-providers';
import { ONBOARDING_PORTAL_PATH, onboardingPortalUrl } from '../../shared/domain/onboarding-portal';
import type { Queryable } from '../db/types';
import type { LocalStackContext } from '../kernel/context';
import { parseBody } from '../kernel/body';
import { seeOther } from '../kernel/http';
import { route } from '../kernel/route';
import { tenantOf, type Tenant } from '../kernel/tenant';
import type { JsonObject } from '../kernel/tenant-config';
import { findLinkByValue, findOrganization } from '../organization/store';
import type { OnboardingPortalLinkRow, OrganizationRow } from '../organization/schema';
import { setProjectBody } from '../project/bodies';
import { revisionFromDocument } from '../project/revisions';
import { addRevision, findProject, findRevision } from '../project/store';
import { projectDocument } from '../project/views';
import { checkCsrf, issueCsrfToken } from '../self-service/csrf';
import { esc } from './html';
import { page } from './render';
import type { HostedTheme } from './theme';
import type { Locale } from './i18n';

/*
 * The onboarding portal of an organization (spec §3 onboarding portal link): whoever holds a link's token
 * opens `{project}/ui/onboarding/{token}` without a console account and sets up the single sign-on of that
 * one organization — the OpenID Connect provider its users are sent to. Nothing on the page names or reaches
 * another organization or another project: the organization is the link's, never a field of the form. An
 * expired or deleted link, or one of another project, gets a page saying so and changes nothing.
 */

const ONBOARDING_PATH = ONBOARDING_PORTAL_PATH;
const onboardingUrl = onboardingPortalUrl;

const tokenParams = z.object({ token: z.string().max(256) });
const savedQuery = z.looseObject({ saved: z.string().max(8).optional() });

const httpsOrLocal = (label: string) =>
  z
    .string()
    .trim()
    .max(2048, { error: `${label} has at most 2048 characters` })
    .refine((v) => /^https:\/\/[^\s]+$/.test(v) || /^http:\/\/(localhost|127\.0\.0\.1|\[::1\])(:\d+)?(\/[^\s]*)?$/.test(v), {
      error: `${label} must be an https URL`,
    });

/** What the administrator submits: the provider's issuer and the client it issued (OpenID Connect discovery finds the rest). */
const ssoForm = z.looseObject({
  csrf_token: z.string().max(512).optional(),
  label: z.string().trim().max(64, { error: 'The button label has at most 64 characters' }).optional(),
  issuer_url: httpsOrLocal('The issuer URL'),
  client_id: z.string().trim().min(1, { error: 'Give the client ID your identity provider issued' }).max(255, { error: 'The client ID has at most 255 characters' }),
  client_secret: z.string().max(1024, { error: 'The client secret has at most 1024 characters' }).optional(),
  scope: z.string().trim().max(1024, { error: 'The scopes have at most 1024 characters' }).optional(),
});

type Look = (req: FastifyRequest) => Promise<{ locale: Locale; theme: HostedTheme | null }>;
type Html = (reply: FastifyReply, status: number, body: string) => FastifyReply;

export interface OnboardingPortalDeps {
  ctx: LocalStackContext;
  look: Look;
  html: Html;
}

type Resolved =
  | { ok: true; link: OnboardingPortalLinkRow; organization: OrganizationRow }
  | { ok: false; status: number; title: string; text: string };

/** The link a token names, if it is this project's, still valid, and its organization still exists. */
async function resolve(q: Queryable, tenant: Tenant, token: string, now: Date): Promise<Resolved> {
  const link = token ? await findLinkByValue(q, token) : null;
  const organization = link && link.project_id === tenant.nid ? await findOrganization(q, link.organization_id) : null;
  if (!link || !organization || organization.project_id !== tenant.nid) {
    return {
      ok: false,
      status: 404,
      title: 'Onboarding link not found',
      text: 'This onboarding link does not exist or has been deleted. Ask whoever sent it to you for a new one.',
    };
  }
  if (link.expires_at.getTime() <= now.getTime()) {
    return {
      ok: false,
      status: 410,
      title: 'Onboarding link expired',
      text: `This onboarding link expired on ${formatDateTime(link.expires_at.toISOString())}. Ask whoever sent it to you for a new one.`,
    };
  }
  return { ok: true, link, organization };
}

const OIDC = ['services', 'identity', 'config', 'selfservice', 'methods', 'oidc'] as const;
const obj = (v: unknown): JsonObject => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as JsonObject) : {});
const text = (v: unknown) => (typeof v === 'string' ? v : '');

/** The providers of the project's configuration document, and the organization's own among them. */
function providersOf(services: unknown, organizationId: string): { list: JsonObject[]; index: number } {
  let at: unknown = { services };
  for (const key of OIDC) at = obj(at)[key];
  const raw = obj(obj(at).config).providers;
  const list = Array.isArray(raw) ? raw.map(obj) : [];
  return { list, index: list.findIndex((p) => p.organization_id === organizationId) };
}

/** A provider id for the organization that no other provider of the project has. */
function newProviderId(list: JsonObject[], organizationId: string): string {
  const hex = organizationId.replace(/-/g, '');
  for (let n = 8; n <= hex.length; n += 4) {
    const id = `sso-${hex.slice(0, n)}`;
    if (!list.some((p) => p.id === id)) return id;
  }
  return `sso-${hex}`;
}

/**
 * Writes the organization's provider into the project's configuration as a new revision (the project row
 * held for the transaction): the organization's existing provider is edited, or one is added; the method is
 * switched on. No other provider, and no other part of the configuration, changes.
 */
async function saveProvider(q: Queryable, tenant: Tenant, organization: OrganizationRow, form: z.infer<typeof ssoForm>): Promise<string> {
  const project = await findProject(q, tenant.nid, true);
  if (!project) throw new Error(`project ${tenant.nid} is missing`);
  const current = await findRevision(q, project.current_revision_id);
  const doc = projectDocument(current) as JsonObject;
  const services = structuredClone(doc.services) as JsonObject;
  let at = services;
  for (const key of OIDC.slice(1)) {
    const next = obj(at[key]);
    at[key] = next;
    at = next;
  }
  const oidc = at;
  oidc.enabled = true;
  const config = obj(oidc.config);
  oidc.config = config;
  const { list, index } = providersOf(services, organization.id);
  const existing = index >= 0 ? list[index]! : undefined;
  const secret = form.client_secret?.trim() || text(existing?.client_secret);
  if (!secret) throw new PortalFormError('client_secret', 'Give the client secret your identity provider issued');
  const scope = form.scope ? form.scope.split(/[\s,]+/).filter(Boolean) : Array.isArray(existing?.scope) ? existing.scope : ['openid', 'email', 'profile'];
  if (!scope.includes('openid')) throw new PortalFormError('scope', 'The scopes must include openid');
  const provider: JsonObject = {
    ...(existing ?? {}),
    id: text(existing?.id) || newProviderId(list, organization.id),
    provider: text(existing?.provider) || 'generic',
    label: form.label || text(existing?.label) || organization.label,
    client_id: form.client_id,
    client_secret: secret,
    issuer_url: form.issuer_url,
    scope,
    mapper_url: text(existing?.mapper_url),
    organization_id: organization.id,
  };
  delete provider.auth_url;
  delete provider.token_url;
  config.providers = index >= 0 ? list.map((p, i) => (i === index ? provider : p)) : [...list, provider];
  const next = parseBody(setProjectBody, { ...doc, services }, 'project configuration');
  await addRevision(q, project.id, revisionFromDocument(current, next), null);
  return String(provider.id);
}

class PortalFormError extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
  }
}

interface FormState {
  values: { label: string; issuer_url: string; client_id: string; scope: string };
  secretSet: boolean;
  errors: Record<string, string>;
}

function field(name: string, label: string, value: string, opts: { type?: string; hint?: string; error?: string; required?: boolean; autocomplete?: string } = {}) {
  const id = `f-${name}`;
  const described = [opts.hint ? `${id}-h` : '', opts.error ? `${id}-e` : ''].filter(Boolean).join(' ');
  return `<div class="field"><label for="${id}">${esc(label)}</label><input id="${id}" name="${esc(name)}" type="${esc(opts.type ?? 'text')}" value="${esc(value)}"${opts.required ? ' required' : ''}${
    opts.autocomplete ? ` autocomplete="${esc(opts.autocomplete)}"` : ''
  }${described ? ` aria-describedby="${described}"` : ''}${opts.error ? ' aria-invalid="true"' : ''} data-testid="onboarding-${esc(name)}">${
    opts.hint ? `<p class="field-message" id="${id}-h">${esc(opts.hint)}</p>` : ''
  }${opts.error ? `<p class="field-message error" id="${id}-e">${esc(opts.error)}</p>` : ''}</div>`;
}

function portalBody(tenant: Tenant, token: string, link: OnboardingPortalLinkRow, organization: OrganizationRow, providerId: string | null, csrf: string, state: FormState, saved: boolean): string {
  const intro = `<p data-testid="onboarding-organization">Set up single sign-on for <strong>${esc(organization.label)}</strong>${
    organization.domains.length ? `: people with an email address at ${organization.domains.map((d) => `<code>${esc(d)}</code>`).join(', ')} will sign in through your identity provider.` : '.'
  } This link works until ${esc(formatDateTime(link.expires_at.toISOString()))}.</p>`;
  const status = saved
    ? `<div role="status"><ul class="messages"><li class="message info" data-testid="onboarding-saved">Saved. Your identity provider is now used for ${esc(organization.label)}.</li></ul></div>`
    : '';
  const problems = Object.values(state.errors);
  const alert = problems.length
    ? `<div role="alert"><ul class="messages"><li class="message error" data-testid="onboarding-error">Check the highlighted fields: ${esc(problems.join('; '))}.</li></ul></div>`
    : '';
  let sso: string;
  if (!link.enable_sso) {
    sso = '<p data-testid="onboarding-sso-off">This link does not include setting up single sign-on.</p>';
  } else {
    const redirect = socialRedirectUri(tenant.base, providerId ?? 'sso-…');
    sso = `<h2 id="sso-title">OpenID Connect provider</h2>
<p>Register an application (client) at your identity provider with this redirect URI${providerId ? '' : ' (its last part is fixed when you save)'}:</p>
<pre data-testid="onboarding-redirect-uri">${esc(redirect)}</pre>
<form method="POST" action="${esc(onboardingUrl(tenant.base, token))}" aria-labelledby="sso-title" data-testid="onboarding-form">
<input type="hidden" name="csrf_token" value="${esc(csrf)}">
${field('issuer_url', 'Issuer URL', state.values.issuer_url, { type: 'url', required: true, hint: 'Where your provider publishes /.well-known/openid-configuration.', error: state.errors.issuer_url })}
${field('client_id', 'Client ID', state.values.client_id, { required: true, autocomplete: 'off', error: state.errors.client_id })}
${field('client_secret', 'Client secret', '', {
  type: 'password',
  autocomplete: 'new-password',
  hint: state.secretSet ? 'A secret is saved; leave this empty to keep it.' : undefined,
  error: state.errors.client_secret,
})}
${field('scope', 'Scopes', state.values.scope, { hint: 'Separated by spaces; openid is required.', error: state.errors.scope })}
${field('label', 'Button label', state.values.label, { hint: 'Shown to your users where they sign in.', error: state.errors.label })}
<button type="submit" data-testid="onboarding-submit">Save</button>
</form>`;
  }
  const scim = link.enable_scim
    ? '<h2>User provisioning (SCIM)</h2><p data-testid="onboarding-scim">This link allows SCIM provisioning, which this server does not offer yet: your identity provider cannot push users here.</p>'
    : '';
  return `${status}${alert}${intro}\n${sso}\n${scim}`;
}

/** The portal's two routes, in the hosted pages' scope of a project's tenant. */
export function registerOnboardingPortal(scope: FastifyInstance, deps: OnboardingPortalDeps): void {
  const { ctx, look, html } = deps;
  const { db } = ctx;

  const refusal = async (req: FastifyRequest, reply: FastifyReply, r: Extract<Resolved, { ok: false }>) => {
    const { locale, theme } = await look(req);
    const body = `<div role="alert"><ul class="messages"><li class="message error" data-testid="onboarding-refused">${esc(r.text)}</li></ul></div>`;
    return html(reply, r.status, page({ locale, theme, title: r.title, body }));
  };

  const show = async (req: FastifyRequest, reply: FastifyReply, q: Queryable, token: string, resolved: Extract<Resolved, { ok: true }>, state: FormState | null, status: number, saved: boolean) => {
    const tenant = tenantOf(req);
    const { locale, theme } = await look(req);
    const project = await findProject(q, tenant.nid);
    const { list, index } = providersOf(project ? (await findRevision(q, project.current_revision_id)).services : {}, resolved.organization.id);
    const existing = index >= 0 ? list[index] : undefined;
    const csrf = issueCsrfToken(req, reply, tenant, tenant.base.startsWith('https:'));
    const secretSet = text(existing?.client_secret) !== '';
    const form: FormState = state ? { ...state, secretSet } : {
      values: {
        label: text(existing?.label),
        issuer_url: text(existing?.issuer_url),
        client_id: text(existing?.client_id),
        scope: Array.isArray(existing?.scope) ? (existing.scope as string[]).join(' ') : 'openid email profile',
      },
      secretSet,
      errors: {},
    };
    const body = portalBody(tenant, token, resolved.link, resolved.organization, existing ? text(existing.id) : null, csrf, form, saved);
    // Whoever holds the token may be on a shared machine: the page is never cached, nor sent as a referrer.
    reply.header('referrer-policy', 'no-referrer');
    return html(reply, status, page({ locale, theme, title: `Single sign-on for ${resolved.organization.label}`, body }));
  };

  route(scope, ctx, {
    method: 'GET',
    url: `${ONBOARDING_PATH}/:token`,
    params: tokenParams,
    query: savedQuery,
    auth: 'public',
    handler: async ({ req, reply, params, query }) => {
      const resolved = await resolve(db, tenantOf(req), params.token, ctx.clock.now());
      if (!resolved.ok) return refusal(req, reply, resolved);
      return show(req, reply, db, params.token, resolved, null, 200, query.saved === '1');
    },
  });

  route(scope, ctx, {
    method: 'POST',
    url: `${ONBOARDING_PATH}/:token`,
    params: tokenParams,
    body: z.record(z.string(), z.unknown()),
    auth: 'public',
    transaction: false,
    handler: async ({ req, reply, params, body }) => {
      const tenant = tenantOf(req);
      checkCsrf(req, body.csrf_token, tenant);
      const outcome = await db.tx(async (q) => {
        const resolved = await resolve(q, tenant, params.token, ctx.clock.now());
        if (!resolved.ok) return { refused: resolved } as const;
        if (!resolved.link.enable_sso) {
          return { refused: { ok: false, status: 403, title: 'Single sign-on not included', text: 'This onboarding link does not include setting up single sign-on.' } } as const;
        }
        const str = (v: unknown) => (typeof v === 'string' ? v : '');
        const values = { label: str(body.label), issuer_url: str(body.issuer_url), client_id: str(body.client_id), scope: str(body.scope) };
        const parsed = ssoForm.safeParse(body);
        const errors: Record<string, string> = {};
        if (!parsed.success) {
          for (const issue of parsed.error.issues) errors[String(issue.path[0] ?? 'form')] ??= issue.message;
        } else {
          try {
            await saveProvider(q, tenant, resolved.organization, parsed.data);
            return { saved: true } as const;
          } catch (err) {
            if (!(err instanceof PortalFormError)) throw err;
            errors[err.field] = err.message;
          }
        }
        return { invalid: { resolved, state: { values, secretSet: false, errors } } } as const;
      });
      if ('refused' in outcome) return refusal(req, reply, outcome.refused as Extract<Resolved, { ok: false }>);
      if ('saved' in outcome) return seeOther(reply, `${onboardingUrl(tenant.base, params.token)}?saved=1`);
      return show(req, reply, db, params.token, outcome.invalid.resolved, outcome.invalid.state, 400, false);
    },
  });
}
