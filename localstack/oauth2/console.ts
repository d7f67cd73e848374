import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { LocalStackContext } from '../kernel/context';
import { seeOther, uiLink } from '../kernel/http';
import { CONSOLE_NID, tenantOf, useConsoleTenant } from '../kernel/tenant';
import { currentSession } from '../self-service/flow-routes';
import { acceptConsent, acceptLogin, ChallengeError, getConsentRequest, rejectRequest } from './challenges';
import { clientView, HydraError, toStored, validateClient } from './hydra-clients';
import { servePublicOAuth2 } from './mount';
import { pgClientRepository } from './pg-store';
import type { ProjectServer } from './registry';

/**
 * The console's own tenant gets the same OAuth2 server as every project, at the root of the stack (and, through
 * the console's `/.ory` proxy, on the console's origin): applications such as a command-line tool ask to act on
 * a user's console account. Its login is the console sign-in itself (the bridge below accepts the login for
 * whoever is signed in), its consent is the console's page `/oauth2/consent`, which reads and answers the consent
 * request through Hydra's admin paths here, for the signed-in user's own requests only.
 */

/** The console's own public client, a command-line tool on the user's machine (PKCE, no secret). */
export const CONSOLE_CLI_CLIENT = {
  client_id: 'console-cli',
  client_name: 'Console CLI',
  redirect_uris: ['http://127.0.0.1/callback'],
  grant_types: ['authorization_code', 'refresh_token'],
  response_types: ['code'],
  scope: 'openid offline_access email profile',
  token_endpoint_auth_method: 'none',
};

/** Where the console's authorization server sends a browser to sign in: accepted at once for a signed-in user. */
export const CONSOLE_LOGIN_PATH = '/console/oauth2/login';

const challengeQuery = z.looseObject({ login_challenge: z.string().max(512).optional(), consent_challenge: z.string().max(512).optional() });
const acceptBody = z.object({
  grant_scope: z.array(z.string().max(256)).max(100).optional(),
  remember: z.boolean().optional(),
  remember_for: z.number().int().optional(),
});

const hydraFailure = (err: unknown) =>
  err instanceof ChallengeError ? new HydraError(err.status, err.status === 404 ? 'Not Found' : err.status === 410 ? 'Gone' : 'invalid_request', err.message) : err;

export async function registerConsoleOAuth2(
  app: FastifyInstance,
  ctx: LocalStackContext,
  serverFor: (req: FastifyRequest, fallbackUrls: { login: string; consent: string }) => Promise<ProjectServer>,
): Promise<void> {
  const at = new Date(Math.floor(ctx.clock.now().getTime() / 1000) * 1000).toISOString().replace('.000Z', 'Z');
  await pgClientRepository(ctx.db, CONSOLE_NID).insert(toStored(validateClient(CONSOLE_CLI_CLIENT, { subjectTypes: ['public'] }), at, at));

  const consoleServer = async (req: FastifyRequest) => {
    const tenant = tenantOf(req);
    const server = await serverFor(req, { login: `${tenant.base}${CONSOLE_LOGIN_PATH}`, consent: uiLink(ctx.uiUrl, '/oauth2/consent') });
    // Behind the console's proxy the browser sees the forwarded host: oidc-provider builds its URLs from it.
    server.provider.proxy = true;
    return server;
  };

  await app.register(async (scope) => {
    useConsoleTenant(scope, ctx);
    servePublicOAuth2(scope, async (req) => {
      const server = await consoleServer(req);
      return {
      provider: server.provider,
      learnScopes: server.learnScopes,
      basePath: '',
      // On the console's origin the server lives below the proxy's prefix (`/.ory`).
      publicPath: new URL(tenantOf(req).base).pathname.replace(/\/+$/, ''),
      };
    });
  });

  await app.register(async (scope) => {
    useConsoleTenant(scope, ctx);
    scope.setErrorHandler(async (err, _req, reply) => {
      const failure = hydraFailure(err);
      if (failure instanceof HydraError) return reply.code(failure.status).send(failure.body);
      throw err;
    });
    const signedIn = async (req: FastifyRequest) => (await currentSession(ctx.db, tenantOf(req), req, ctx.clock.now()))?.identity_id ?? null;

    // The login of the console's authorization server is the console sign-in: a signed-in user's login request
    // is accepted for them; anyone else signs in on the console first and comes back here.
    scope.get(CONSOLE_LOGIN_PATH, async (req, reply) => {
      const challenge = challengeQuery.safeParse(req.query).data?.login_challenge ?? '';
      const subject = await signedIn(req);
      if (!subject) {
        const back = `${tenantOf(req).base}${CONSOLE_LOGIN_PATH}?${new URLSearchParams({ login_challenge: challenge })}`;
        return seeOther(reply, uiLink(ctx.uiUrl, '/login', { return_to: back }));
      }
      const { redirect_to } = await acceptLogin(await consoleServer(req), challenge, { subject });
      return seeOther(reply, redirect_to);
    });

    // Hydra's consent paths, for the signed-in user's own consent requests: another user's is not found.
    const ownRequest = async (req: FastifyRequest) => {
      const subject = await signedIn(req);
      if (!subject) throw new HydraError(401, 'Unauthorized', 'The request could not be authorized. Sign in to the console first.');
      const challenge = challengeQuery.safeParse(req.query).data?.consent_challenge ?? '';
      if (!challenge) throw new HydraError(400, 'invalid_request', 'The query parameter consent_challenge is required: pass the challenge the browser was sent with.');
      const server = await consoleServer(req);
      const request = await getConsentRequest(server, challenge);
      if (request.subject !== subject) throw new ChallengeError(404, 'The consent request could not be found. Check the consent_challenge.');
      return { server, challenge, request };
    };
    scope.get('/admin/oauth2/auth/requests/consent', async (req) => {
      const { request } = await ownRequest(req);
      return { ...request, client: clientView(request.client) };
    });
    scope.put('/admin/oauth2/auth/requests/consent/accept', async (req) => {
      const { server, challenge, request } = await ownRequest(req);
      const parsed = acceptBody.safeParse(req.body ?? {});
      if (!parsed.success) throw new HydraError(400, 'invalid_request', `Unable to decode the request body: ${parsed.error.issues[0]!.message}`);
      const asked = new Set(request.requested_scope);
      return acceptConsent(server, challenge, {
        grant_scope: (parsed.data.grant_scope ?? []).filter((s) => asked.has(s)),
        grant_access_token_audience: request.requested_access_token_audience,
        remember: parsed.data.remember ?? false,
      });
    });
    scope.put('/admin/oauth2/auth/requests/consent/reject', async (req) => {
      const { server, challenge } = await ownRequest(req);
      return rejectRequest(server, challenge, 'consent', { error: 'access_denied', error_description: 'The resource owner denied the request' });
    });
  });
}
