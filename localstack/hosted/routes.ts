import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { UiContainer, UiText } from '@ory/client';
import { z } from 'zod';
import type { LocalStackContext } from '../kernel/context';
import { installErrorHandler } from '../kernel/errors';
import { queryValue, seeOther, uiLink } from '../kernel/http';
import { route, useZodValidation } from '../kernel/route';
import { PROJECT_API_PREFIX, projectApiPath, tenantOf, useProjectTenant, type Tenant } from '../kernel/tenant';
import { acceptConsent, acceptLogin, ChallengeError, getConsentRequest, getLoginRequest, rejectRequest } from '../oauth2/challenges';
import type { OAuth2Servers } from '../oauth2/routes';
import { HydraError } from '../oauth2/hydra-clients';
import { acceptLogoutRequest, getLogoutRequest, rejectLogoutRequest } from '../oauth2/logout';
import { acceptDeviceRequest } from '../oauth2/device';
import { publicIdentity } from '../identity/service';
import { checkCsrf, issueCsrfToken } from '../self-service/csrf';
import { currentSession } from '../self-service/flow-routes';
import type { Queryable } from '../db/types';
import { accountExperienceConfig } from './config';
import { esc, attrs } from './html';
import { chrome, pickLocale, scopeInWords, type ChromeKey, type Locale } from './i18n';
import { flowForms, messagesHtml, page } from './render';
import type { HostedTheme } from './theme';
import { registerOnboardingPortal } from './onboarding';

export interface HostedDeps {
  ctx: LocalStackContext;
  oauth2: OAuth2Servers;
  /** The project's active branding theme, or null for the default look. */
  themeOf(q: Queryable, projectId: string): Promise<HostedTheme | null>;
}

const FLOW_PAGES = ['login', 'registration', 'recovery', 'verification', 'settings'] as const;
type FlowPage = (typeof FLOW_PAGES)[number];

/** Headers a hosted page passes on when it reads a flow from its own tenant's API, as the browser would. */
const FORWARDED = ['cookie', 'host', 'x-forwarded-proto', 'x-forwarded-host', 'x-forwarded-prefix', 'user-agent'] as const;

const flowQuery = z.looseObject({ flow: queryValue, return_to: queryValue, login_challenge: queryValue, preview: queryValue });
const consentQuery = z.looseObject({ consent_challenge: queryValue });
const errorQuery = z.looseObject({ id: queryValue });
const logoutQuery = z.looseObject({ logout_challenge: queryValue });
const deviceQuery = z.looseObject({ device_challenge: queryValue, user_code: queryValue });
const deviceForm = z.looseObject({
  device_challenge: z.string().max(512),
  csrf_token: z.string().max(512).optional(),
  user_code: z.string().max(64),
});
const logoutForm = z.looseObject({
  logout_challenge: z.string().max(512),
  csrf_token: z.string().max(512).optional(),
  action: z.enum(['accept', 'reject']),
});
const consentForm = z.looseObject({
  consent_challenge: z.string().max(512),
  csrf_token: z.string().max(512).optional(),
  action: z.enum(['accept', 'reject']),
  grant_scope: z.union([z.string().max(512), z.array(z.string().max(512)).max(100)]).optional(),
  remember: z.string().max(16).optional(),
});

/**
 * Every project's hosted pages at `{base}/ui/…`: its self-service flows rendered from their UI nodes as plain
 * HTML forms that post straight to the flows (no script of their own; a flow's script node, as passkeys
 * have, loads the flow's), the OAuth2 login and consent of its authorization
 * server, in the project's language settings and its active branding theme.
 */
export async function registerHostedPages(app: FastifyInstance, deps: HostedDeps): Promise<void> {
  const { ctx } = deps;
  const { db } = ctx;

  await app.register(
    async (scope) => {
      useZodValidation(scope);
      installErrorHandler(scope, ctx.log, { name: 'hosted pages' });
      // Forms repeat a name for each checked box (granted scopes): keep every value.
      scope.removeContentTypeParser('application/x-www-form-urlencoded');
      scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) => {
        const out: Record<string, string | string[]> = {};
        for (const [k, v] of new URLSearchParams(body as string)) {
          const prior = out[k];
          out[k] = prior === undefined ? v : Array.isArray(prior) ? [...prior, v] : [prior, v];
        }
        done(null, out);
      });
      useProjectTenant(scope, ctx);

      /** What every page is drawn with: the visitor's language and the project's theme. */
      const look = async (req: FastifyRequest) => {
        const tenant = tenantOf(req);
        const [config, theme] = await Promise.all([accountExperienceConfig(db, tenant.nid), deps.themeOf(db, tenant.nid)]);
        return { locale: pickLocale(config, req.headers['accept-language']), theme };
      };

      const html = (reply: FastifyReply, status: number, body: string) =>
        reply
          .code(status)
          .header('content-type', 'text/html; charset=utf-8')
          .header('cache-control', 'private, no-store')
          .header('content-language', body.match(/<html lang="(\w+)"/)?.[1] ?? 'en')
          .send(body);

      const errorPage = async (req: FastifyRequest, reply: FastifyReply, status: number, text: string) => {
        const { locale, theme } = await look(req);
        const tenant = tenantOf(req);
        const body = `<div role="alert"><ul class="messages"><li class="message error" data-testid="hosted-error">${esc(text)}</li></ul></div>
<div class="links"><a href="${esc(uiLink(tenant.uiUrl, '/login'))}">${esc(chrome(locale, 'link.back'))}</a></div>`;
        return html(reply, status, page({ locale, theme, title: chrome(locale, 'title.error'), body }));
      };

      /** GET of the tenant's own public API with the browser's cookies, as its hosted UI would call it. */
      const own = async (req: FastifyRequest, path: string) => {
        const headers: Record<string, string> = { accept: 'application/json' };
        for (const name of FORWARDED) {
          const value = req.headers[name];
          if (typeof value === 'string') headers[name] = value;
        }
        const tenant = tenantOf(req);
        // The page's own base (a proxy's, a custom domain's) is where the flow's forms must post to.
        if (headers['x-forwarded-host'] === undefined) {
          const base = new URL(tenant.base);
          Object.assign(headers, { 'x-forwarded-proto': base.protocol.slice(0, -1), 'x-forwarded-host': base.host, 'x-forwarded-prefix': base.pathname });
        }
        const slug = tenant.project?.slug ?? '';
        const res = await app.inject({ method: 'GET', url: `${projectApiPath(slug)}${path}`, headers });
        let body: Record<string, unknown> = {};
        try {
          body = res.json();
        } catch {
          body = {};
        }
        return { status: res.statusCode, body };
      };

      const browserStart = (tenant: Tenant, kind: FlowPage, query: Record<string, string | undefined>) => {
        const url = new URL(`${tenant.base}/self-service/${kind}/browser`);
        for (const [k, v] of Object.entries(query)) if (v) url.searchParams.set(k, v);
        return url.href;
      };

      /** The challenge's client, named on the login page of an OAuth2 sign-in. */
      const clientOfReturnTo = async (req: FastifyRequest, returnTo: unknown): Promise<string | undefined> => {
        if (typeof returnTo !== 'string') return undefined;
        let challenge: string | null = null;
        try {
          challenge = new URL(returnTo).searchParams.get('login_challenge');
        } catch {
          return undefined;
        }
        if (!challenge) return undefined;
        try {
          const request = await getLoginRequest(await deps.oauth2.serverFor(req), challenge);
          return String(request.client.client_name || request.client.client_id);
        } catch {
          return undefined;
        }
      };

      const links = (locale: Locale, items: Array<[ChromeKey, string]>) =>
        items.length
          ? `<nav class="links" aria-label="${esc(chrome(locale, 'title.login'))}">${items
              .map(([key, href]) => `<a href="${esc(href)}" data-testid="hosted-link-${key.split('.')[1]}">${esc(chrome(locale, key))}</a>`)
              .join('')}</nav>`
          : '';

      registerOnboardingPortal(scope, { ctx, look, html });

      for (const kind of FLOW_PAGES) {
        route(scope, ctx, {
          method: 'GET',
          url: `/ui/${kind}`,
          query: flowQuery,
          auth: 'public',
          handler: async ({ req, reply, query }) => {
            const tenant = tenantOf(req);
            // An OAuth2 sign-in: a signed-in end user is the login's subject, anyone else signs in (or up) first.
            if (kind === 'login' && query.login_challenge && !query.flow) {
              const server = await deps.oauth2.serverFor(req);
              try {
                await getLoginRequest(server, query.login_challenge);
                const session = await currentSession(db, tenant, req, ctx.clock.now());
                if (session) {
                  const { redirect_to } = await acceptLogin(server, query.login_challenge, { subject: session.identity_id, remember: true });
                  return seeOther(reply, redirect_to);
                }
              } catch (err) {
                if (err instanceof ChallengeError) return errorPage(req, reply, err.status, err.message);
                throw err;
              }
              const back = uiLink(tenant.uiUrl, '/login', { login_challenge: query.login_challenge });
              return seeOther(reply, browserStart(tenant, 'login', { return_to: back }));
            }
            // A preview (the console frames it, often from another site, where the flow's cookies are not sent):
            // a fresh flow's form drawn in the project's look, that submits nothing.
            const preview = !query.flow && query.preview === 'true' && kind !== 'settings';
            if (!query.flow && !preview) {
              const passOn = Object.fromEntries(
                Object.entries(query).filter(([k, v]) => k !== 'flow' && typeof v === 'string'),
              ) as Record<string, string>;
              return seeOther(reply, browserStart(tenant, kind, passOn));
            }
            const res = preview
              ? await app
                  .inject({ method: 'GET', url: `${projectApiPath(tenant.project?.slug ?? '')}/self-service/${kind}/api`, headers: { accept: 'application/json' } })
                  .then((r) => ({ status: r.statusCode, body: r.json() as Record<string, unknown> }))
              : await own(req, `/self-service/${kind}/flows?id=${encodeURIComponent(query.flow!)}`);
            if (res.status !== 200) {
              const error = (res.body.error ?? {}) as { details?: { return_to?: string } };
              if (kind === 'settings' && (res.status === 401 || res.status === 403)) {
                return seeOther(reply, browserStart(tenant, 'login', { return_to: uiLink(tenant.uiUrl, '/settings') }));
              }
              if ([403, 404, 410].includes(res.status)) {
                return seeOther(reply, browserStart(tenant, kind, { return_to: error.details?.return_to }));
              }
              const reason = (res.body.error as { reason?: string; message?: string } | undefined)?.reason;
              return errorPage(req, reply, res.status >= 500 ? 500 : res.status, reason ?? 'The flow could not be loaded.');
            }
            const flow = res.body as { ui: UiContainer; return_to?: string; identity?: { traits?: { email?: string } } };
            const { locale, theme } = await look(req);
            const returnTo = flow.return_to;
            let intro = '';
            let footer: Array<[ChromeKey, string]> = [];
            if (kind === 'login') {
              const client = await clientOfReturnTo(req, returnTo);
              if (client) intro = `<p class="muted" data-testid="hosted-client">${esc(chrome(locale, 'login.continueTo', { client }))}</p>`;
              footer = [
                ['link.registration', browserStart(tenant, 'registration', { return_to: returnTo })],
                ['link.recovery', uiLink(tenant.uiUrl, '/recovery')],
              ];
            } else if (kind === 'registration') {
              footer = [['link.login', browserStart(tenant, 'login', { return_to: returnTo })]];
            } else if (kind === 'settings') {
              const logout = await own(req, '/self-service/logout/browser');
              footer = [
                ['link.verification', uiLink(tenant.uiUrl, '/verification')],
                ...(typeof logout.body.logout_url === 'string' ? [['link.logout', logout.body.logout_url] as [ChromeKey, string]] : []),
              ];
            } else {
              footer = [['link.back', uiLink(tenant.uiUrl, '/login')]];
            }
            const forms = flowForms(locale, flow.ui, { titled: kind === 'settings' });
            const body = `${intro}${preview ? `<p class="message" role="note" data-testid="hosted-preview-note">${esc(chrome(locale, 'preview.note'))}</p>` : ''}${messagesHtml(locale, flow.ui.messages as UiText[] | undefined)}
${preview ? forms.replaceAll('<form ', '<form inert ') : forms}
${links(locale, footer)}`;
            return html(reply, 200, page({ locale, theme, title: chrome(locale, `title.${kind}`), body }));
          },
        });
      }

      route(scope, ctx, {
        method: 'GET',
        url: '/ui/error',
        query: errorQuery,
        auth: 'public',
        handler: async ({ req, reply, query }) => {
          const { locale } = await look(req);
          if (!query.id) return errorPage(req, reply, 200, chrome(locale, 'error.unknown'));
          const res = await own(req, `/self-service/errors?id=${encodeURIComponent(query.id)}`);
          const error = (res.body.error ?? {}) as { reason?: string; message?: string };
          const stored = res.status === 200 ? ((res.body.error ?? {}) as { error?: { reason?: string; message?: string } }) : {};
          const text = stored.error?.reason ?? stored.error?.message ?? (res.status === 200 ? error.reason ?? error.message : undefined);
          return errorPage(req, reply, 200, text ?? chrome(locale, 'error.unknown'));
        },
      });

      for (const url of ['/ui', '/ui/']) {
        route(scope, ctx, {
          method: 'GET',
          url,
          auth: 'public',
          handler: async ({ req, reply }) => {
            const tenant = tenantOf(req);
            const session = await currentSession(db, tenant, req, ctx.clock.now());
            if (!session) return seeOther(reply, uiLink(tenant.uiUrl, '/login'));
            const { locale, theme } = await look(req);
            const logout = await own(req, '/self-service/logout/browser');
            const body = `<p data-testid="hosted-signed-in">${esc(chrome(locale, 'home.as', { email: session.traits.email ?? session.identity_id }))}</p>
${links(locale, [
  ['link.settings', uiLink(tenant.uiUrl, '/settings')],
  ...(typeof logout.body.logout_url === 'string' ? [['link.logout', logout.body.logout_url] as [ChromeKey, string]] : []),
])}`;
            return html(reply, 200, page({ locale, theme, title: chrome(locale, 'title.home'), body }));
          },
        });
      }

      route(scope, ctx, {
        method: 'GET',
        url: '/ui/consent',
        query: consentQuery,
        auth: 'public',
        handler: async ({ req, reply, query }) => {
          const tenant = tenantOf(req);
          const { locale, theme } = await look(req);
          const server = await deps.oauth2.serverFor(req);
          let request: Awaited<ReturnType<typeof getConsentRequest>>;
          try {
            request = await getConsentRequest(server, query.consent_challenge ?? '');
          } catch (err) {
            if (err instanceof ChallengeError) return errorPage(req, reply, err.status, err.message);
            throw err;
          }
          const session = await currentSession(db, tenant, req, ctx.clock.now());
          if (!session || session.identity_id !== request.subject) {
            return errorPage(req, reply, 403, 'Sign in as the user this request was made for, then try again.');
          }
          const csrf = issueCsrfToken(req, reply, tenant, tenant.base.startsWith('https:'));
          const client = request.client.client_name || request.client.client_id || '';
          const scopes = request.requested_scope
            .map(
              (s, i) =>
                `<li class="check"><input${attrs({ id: `scope-${i}`, type: 'checkbox', name: 'grant_scope', value: s, checked: true })}><label for="scope-${i}">${esc(scopeInWords(locale, s))}${scopeInWords(locale, s) === s ? '' : ` <span class="muted">(${esc(s)})</span>`}</label></li>`,
            )
            .join('');
          const logo = request.client.logo_uri ? `<img class="logo" src="${esc(request.client.logo_uri)}" alt="${esc(client)}">` : '';
          const body = `${logo}<p data-testid="hosted-consent-client">${esc(chrome(locale, 'consent.intro', { client }))}</p>
<p class="muted">${esc(chrome(locale, 'consent.signedInAs', { subject: session.traits.email ?? session.identity_id }))}</p>
<form action="${esc(uiLink(tenant.uiUrl, '/consent'))}" method="POST">
<input type="hidden" name="consent_challenge" value="${esc(request.challenge)}">
<input type="hidden" name="csrf_token" value="${esc(csrf)}">
<fieldset><legend>${esc(chrome(locale, 'consent.scopes'))}</legend><ul class="scopes">${scopes}</ul></fieldset>
<div class="check"><input id="remember" type="checkbox" name="remember" value="true"><label for="remember">${esc(chrome(locale, 'consent.remember'))}</label></div>
<div class="row"><button type="submit" name="action" value="reject" class="secondary">${esc(chrome(locale, 'consent.deny'))}</button><button type="submit" name="action" value="accept">${esc(chrome(locale, 'consent.allow'))}</button></div>
</form>`;
          return html(reply, 200, page({ locale, theme, title: chrome(locale, 'title.consent'), body }));
        },
      });

      // The project's device verification page until it names its own (Hydra's device request: the user code).
      const devicePage = async (req: FastifyRequest, reply: FastifyReply, status: number, challenge: string, userCode: string, error?: string) => {
        const tenant = tenantOf(req);
        const { locale, theme } = await look(req);
        const csrf = issueCsrfToken(req, reply, tenant, tenant.base.startsWith('https:'));
        const alert = error ? `<ul class="messages" role="alert"><li class="message error" data-testid="hosted-device-error">${esc(error)}</li></ul>` : '';
        const body = `${alert}<p data-testid="hosted-device">${esc(chrome(locale, 'device.intro'))}</p>
<form action="${esc(uiLink(tenant.uiUrl, '/device'))}" method="POST">
<input type="hidden" name="device_challenge" value="${esc(challenge)}">
<input type="hidden" name="csrf_token" value="${esc(csrf)}">
<label for="user_code">${esc(chrome(locale, 'device.code'))}</label>
<input${attrs({ id: 'user_code', name: 'user_code', type: 'text', value: userCode, required: true, autocomplete: 'one-time-code', autocapitalize: 'characters' })}>
<div class="row"><button type="submit">${esc(chrome(locale, 'device.submit'))}</button></div>
</form>`;
        return html(reply, status, page({ locale, theme, title: chrome(locale, 'title.device'), body }));
      };

      route(scope, ctx, {
        method: 'GET',
        url: '/ui/device',
        query: deviceQuery,
        auth: 'public',
        handler: async ({ req, reply, query }) => {
          if (!query.device_challenge) {
            // Without a challenge the page starts at the authorization server, which gives it one.
            const server = await deps.oauth2.serverFor(req);
            const to = new URL(`${server.publicBase}/oauth2/device/verify`);
            if (query.user_code) to.searchParams.set('user_code', query.user_code);
            return seeOther(reply, to.href);
          }
          return devicePage(req, reply, 200, query.device_challenge, query.user_code ?? '');
        },
      });

      route(scope, ctx, {
        method: 'POST',
        url: '/ui/device',
        body: deviceForm,
        auth: 'public',
        transaction: false,
        handler: async ({ req, reply, body }) => {
          checkCsrf(req, body.csrf_token, tenantOf(req));
          const server = await deps.oauth2.serverFor(req);
          try {
            return seeOther(reply, (await acceptDeviceRequest(server, body.device_challenge, body.user_code.trim(), server.publicBase)).redirect_to);
          } catch (err) {
            if (!(err instanceof HydraError)) throw err;
            if (err.status === 404) return errorPage(req, reply, 404, 'This sign-in has expired. Start again from your device.');
            return devicePage(req, reply, 400, body.device_challenge, body.user_code, 'That code is not known, has expired or was used already. Check the code on your device.');
          }
        },
      });

      // The project's logout page until it names its own (Hydra's logout request: sign out, or stay signed in).
      route(scope, ctx, {
        method: 'GET',
        url: '/ui/logout',
        query: logoutQuery,
        auth: 'public',
        handler: async ({ req, reply, query }) => {
          const tenant = tenantOf(req);
          const { locale, theme } = await look(req);
          let request: Awaited<ReturnType<typeof getLogoutRequest>>;
          try {
            request = await getLogoutRequest(await deps.oauth2.serverFor(req), query.logout_challenge ?? '');
          } catch (err) {
            if (err instanceof HydraError) return errorPage(req, reply, err.status, err.description);
            throw err;
          }
          const csrf = issueCsrfToken(req, reply, tenant, tenant.base.startsWith('https:'));
          const client = request.client ? String(request.client.client_name || request.client.client_id || '') : '';
          const body = `<p data-testid="hosted-logout">${esc(client ? chrome(locale, 'logout.client', { client }) : chrome(locale, 'logout.intro'))}</p>
<form action="${esc(uiLink(tenant.uiUrl, '/logout'))}" method="POST">
<input type="hidden" name="logout_challenge" value="${esc(request.challenge)}">
<input type="hidden" name="csrf_token" value="${esc(csrf)}">
<div class="row"><button type="submit" name="action" value="reject" class="secondary">${esc(chrome(locale, 'logout.no'))}</button><button type="submit" name="action" value="accept">${esc(chrome(locale, 'logout.yes'))}</button></div>
</form>`;
          return html(reply, 200, page({ locale, theme, title: chrome(locale, 'title.logout'), body }));
        },
      });

      route(scope, ctx, {
        method: 'POST',
        url: '/ui/logout',
        body: logoutForm,
        auth: 'public',
        transaction: false,
        handler: async ({ req, reply, body }) => {
          const tenant = tenantOf(req);
          checkCsrf(req, body.csrf_token, tenant);
          const server = await deps.oauth2.serverFor(req);
          try {
            if (body.action === 'accept') return seeOther(reply, (await acceptLogoutRequest(server, body.logout_challenge, server.publicBase)).redirect_to);
            await rejectLogoutRequest(server, body.logout_challenge);
          } catch (err) {
            if (err instanceof HydraError) return errorPage(req, reply, err.status, err.description);
            throw err;
          }
          const { locale, theme } = await look(req);
          return html(reply, 200, page({ locale, theme, title: chrome(locale, 'title.logout'), body: `<p data-testid="hosted-logout-stayed">${esc(chrome(locale, 'logout.stayed'))}</p>` }));
        },
      });

      route(scope, ctx, {
        method: 'POST',
        url: '/ui/consent',
        body: consentForm,
        auth: 'public',
        transaction: false,
        handler: async ({ req, reply, body }) => {
          const tenant = tenantOf(req);
          checkCsrf(req, body.csrf_token, tenant);
          const server = await deps.oauth2.serverFor(req);
          try {
            const request = await getConsentRequest(server, body.consent_challenge);
            const session = await currentSession(db, tenant, req, ctx.clock.now());
            if (!session || session.identity_id !== request.subject) {
              return errorPage(req, reply, 403, 'Sign in as the user this request was made for, then try again.');
            }
            if (body.action === 'reject') {
              return seeOther(reply, (await rejectRequest(server, body.consent_challenge, 'consent', {})).redirect_to);
            }
            const asked = new Set(request.requested_scope);
            const granted = (Array.isArray(body.grant_scope) ? body.grant_scope : body.grant_scope ? [body.grant_scope] : []).filter((s) => asked.has(s));
            const identity = await publicIdentity(db, tenant.nid, session.identity_id, tenant.base);
            const traits = (identity?.traits ?? {}) as { email?: string; name?: string };
            const verified = (identity?.verifiable_addresses ?? []).some((a) => a.value === traits.email && a.verified);
            const idToken: Record<string, unknown> = {
              ...(granted.includes('email') && traits.email ? { email: traits.email, email_verified: verified } : {}),
              ...(granted.includes('profile') && typeof traits.name === 'string' && traits.name ? { name: traits.name } : {}),
            };
            const { redirect_to } = await acceptConsent(server, body.consent_challenge, {
              grant_scope: granted,
              grant_access_token_audience: request.requested_access_token_audience,
              remember: body.remember === 'true',
              session: { id_token: idToken },
            });
            return seeOther(reply, redirect_to);
          } catch (err) {
            if (err instanceof ChallengeError) return errorPage(req, reply, err.status, err.message);
            throw err;
          }
        },
      });
    },
    { prefix: PROJECT_API_PREFIX },
  );
}
