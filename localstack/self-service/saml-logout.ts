import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { and, eq, inArray } from 'drizzle-orm';
import type { Profile } from '@node-saml/node-saml';
import { DOMParser } from '@xmldom/xmldom';
import { z } from 'zod';
import { consoleIdentitiesChanged } from '../kernel/authz-cache';
import { route } from '../kernel/route';
import { badRequest } from '../kernel/errors';
import { isSecure, type IdentityDeps } from '../kernel/identity-deps';
import { tenantOf, type Tenant } from '../kernel/tenant';
import { samlSessions, sessions } from '../identity/schema';
import { recordEvent } from '../event/record';
import { samlProvider, samlProviders } from './saml-providers';
import { samlSpKey } from './saml-keys';
import { idpOf, requestIdRecorder, serviceProvider } from './saml';
import { readStateCookie, setPostBackCookie } from './state-cookie';

/*
 * SAML single logout (HTTP-POST binding at the service provider, as its metadata says). Signing out of a
 * session that came from a SAML provider with a logout service sends the browser on to it with a signed
 * LogoutRequest; the provider's signed LogoutResponse comes back here and the browser goes where the logout
 * was to end. A signed LogoutRequest from the provider ends the sessions of the subject it names (of its
 * session index, when it gives one) and is answered with a LogoutResponse. Nothing unsigned is acted on.
 */

/** Binds the browser to the LogoutRequest it was sent with, and says where its logout ends. */
export const SAML_LOGOUT_COOKIE = 'ory_kratos_saml_logout';

interface PendingLogout {
  provider: string;
  requestId: string;
  returnTo: string;
}

const readPending = (req: FastifyRequest): PendingLogout | null => readStateCookie<PendingLogout>(req, SAML_LOGOUT_COOKIE, ['provider', 'requestId', 'returnTo']);

/**
 * The browser logout's hand-over: for a session from a SAML provider that has a logout service, the URL of a
 * LogoutRequest to it (the session itself ends here regardless); otherwise none.
 */
export function samlLogoutHandoff(deps: IdentityDeps) {
  const { db } = deps.ctx;
  return async (req: FastifyRequest, reply: FastifyReply, tenant: Tenant, sessionId: string, returnTo: string): Promise<string | undefined> => {
    const [row] = await db.orm.select().from(samlSessions).where(and(eq(samlSessions.nid, tenant.nid), eq(samlSessions.session_id, sessionId)));
    if (!row) return undefined;
    const provider = (await samlProviders(db, tenant.nid)).find((p) => p.id === row.provider);
    if (!provider) return undefined;
    if (!idpOf(provider).sloUrl) return undefined;
    const recorder = requestIdRecorder();
    const sp = serviceProvider(tenant, provider, await samlSpKey(db, tenant.nid, deps.ctx.clock.now()), recorder.cache);
    const subject = { nameID: row.name_id, nameIDFormat: row.name_id_format ?? 'urn:oasis:names:tc:SAML:1.1:nameid-format:unspecified', sessionIndex: row.session_index ?? undefined } as Profile;
    const url = await sp.getLogoutUrlAsync(subject, '', {});
    const pending: PendingLogout = { provider: provider.id, requestId: recorder.id(), returnTo };
    setPostBackCookie(reply, SAML_LOGOUT_COOKIE, pending, { path: tenant.cookiePath, secure: isSecure(deps, req), maxAge: 600 });
    return url;
  };
}

const sloBody = z.looseObject({
  SAMLRequest: z.string().min(1).max(512 * 1024).optional(),
  SAMLResponse: z.string().min(1).max(512 * 1024).optional(),
  RelayState: z.string().max(256).optional(),
});

/** The single logout service of each SAML provider. */
export function registerSamlLogoutRoutes(app: FastifyInstance, deps: IdentityDeps): void {
  const { ctx } = deps;
  const { db } = ctx;

  route(app, ctx, {
    method: 'POST',
    url: '/self-service/methods/saml/slo/:provider',
    params: z.object({ provider: z.string().max(128) }),
    body: sloBody,
    auth: 'public',
    transaction: false,
    handler: async ({ req, reply, params, body }) => {
      const tenant = tenantOf(req);
      const provider = await samlProvider(db, tenant.nid, params.provider);
      const key = await samlSpKey(db, tenant.nid, ctx.clock.now());
      const refused = (err: unknown, what: string) => {
        ctx.log.info({ nid: tenant.nid, provider: provider.id, err: err instanceof Error ? err.message : String(err) }, `SAML ${what} refused`);
        return badRequest(`Unable to complete SAML logout because the ${what} is invalid: ${err instanceof Error ? err.message : String(err)}`);
      };

      if (body.SAMLResponse) {
        // The answer to the LogoutRequest this browser was sent with.
        const pending = readPending(req);
        if (!pending || pending.provider !== provider.id) throw badRequest('Unable to complete SAML logout because the logout response does not belong to a logout started in this browser.');
        let loggedOut = false;
        try {
          ({ loggedOut } = await serviceProvider(tenant, provider, key).validatePostResponseAsync({ SAMLResponse: body.SAMLResponse }));
        } catch (err) {
          throw refused(err, 'logout response');
        }
        if (!loggedOut) throw badRequest('Unable to complete SAML logout because the identity provider did not answer with a logout response.');
        // node-saml checks the signature of a posted LogoutResponse, not what it answers: that is checked here.
        const answered = new DOMParser().parseFromString(Buffer.from(body.SAMLResponse, 'base64').toString('utf8'), 'text/xml').documentElement?.getAttribute('InResponseTo');
        if (answered !== pending.requestId) throw badRequest('Unable to complete SAML logout because the logout response does not answer the logout request of this browser.');
        reply.clearCookie(SAML_LOGOUT_COOKIE, { path: tenant.cookiePath });
        return reply.code(303).header('location', pending.returnTo).send();
      }

      if (!body.SAMLRequest) throw badRequest('Unable to complete SAML logout: send a SAMLRequest or a SAMLResponse.');
      const sp = serviceProvider(tenant, provider, key);
      let request: Profile;
      try {
        ({ profile: request } = await sp.validatePostRequestAsync({ SAMLRequest: body.SAMLRequest }));
      } catch (err) {
        throw refused(err, 'logout request');
      }
      const ended = await db.tx(async (q) => {
        const matches = await q.orm
          .select({ id: samlSessions.session_id })
          .from(samlSessions)
          .where(
            and(
              eq(samlSessions.nid, tenant.nid),
              eq(samlSessions.provider, provider.id),
              eq(samlSessions.name_id, request.nameID),
              ...(request.sessionIndex ? [eq(samlSessions.session_index, request.sessionIndex)] : []),
            ),
          );
        if (matches.length === 0) return [];
        const gone = await q.orm
          .delete(sessions)
          .where(and(eq(sessions.nid, tenant.nid), inArray(sessions.id, matches.map((m) => m.id))))
          .returning({ id: sessions.id, identity_id: sessions.identity_id });
        consoleIdentitiesChanged(tenant.nid);
        for (const s of gone) await recordEvent(q, ctx.clock, tenant.nid, 'SessionRevoked', { session_id: s.id, identity_id: s.identity_id, reason: 'logout' });
        return gone;
      });
      ctx.log.info({ nid: tenant.nid, provider: provider.id, sessions: ended.length }, 'SAML logout request from the identity provider');
      if (!idpOf(provider).sloUrl) return reply.code(204).send();
      const to = await sp.getLogoutResponseUrlAsync(request, body.RelayState ?? '', {}, true);
      return reply.code(303).header('location', to).send();
    },
  });
}
