import { FrontendApi, OAuth2Api } from '@ory/client';
import { sessionSchema, type Session } from '../../shared/schemas/session';
import type { CallContext } from './backoffice';
import { sessionCookieHeader } from './cookies';
import { UpstreamError } from './errors';
import { createSdkTransport, fromAxiosError } from './sdk';

export { fromAxiosError };

/** Identity provider frontend API (@ory/client FrontendApi) with basePath always set. */
export function createOryClient(options: { basePath: string; timeoutMs: number }) {
  if (!options.basePath) throw new Error('createOryClient: basePath is required');
  const { basePath } = options;
  const transport = createSdkTransport({ upstream: 'ory', timeoutMs: options.timeoutMs });
  const frontend = new FrontendApi(transport.configuration(basePath));

  return {
    basePath,
    frontend,
    /**
     * The console's own OAuth2 server (Hydra's API on the identity provider's base) for one caller: its consent
     * requests are the caller's own, so only the caller's session cookie goes with each call.
     */
    oauth2(c: CallContext): OAuth2Api {
      return transport.guarded(new OAuth2Api(transport.configuration(basePath, { cookie: c.cookie, requestId: c.requestId, signal: c.signal })));
    },
    /**
     * The caller's own sessions (FrontendApi.listMySessions, disableMySession, disableMyOtherSessions) with the
     * forwarded session cookie: the other working sessions of the caller's identity, and revoking them.
     */
    mySessions(c: CallContext) {
      const cookie = sessionCookieHeader(c.cookie) ?? '';
      const options = () => transport.requestOptions({ requestId: c.requestId, signal: c.signal });
      return {
        async listOthers(): Promise<unknown[]> {
          const all: unknown[] = [];
          // Kratos pages by page/per_page; one page of its maximum holds every session a person keeps.
          try {
            const response = await transport.resendIfReset(() => frontend.listMySessions({ cookie, perPage: 1000 }, options()));
            all.push(...response.data);
          } catch (error) {
            throw transport.failure(error, 'listMySessions');
          }
          return all;
        },
        async revoke(id: string): Promise<void> {
          try {
            await transport.resendIfReset(() => frontend.disableMySession({ id, cookie }, options()));
          } catch (error) {
            throw transport.failure(error, 'disableMySession');
          }
        },
        async revokeOthers(): Promise<number> {
          try {
            return (await transport.resendIfReset(() => frontend.disableMyOtherSessions({ cookie }, options()))).data.count ?? 0;
          } catch (error) {
            throw transport.failure(error, 'disableMyOtherSessions');
          }
        },
      };
    },
    /** GET /sessions/whoami with the forwarded session cookie; throws UpstreamError (401 when signed out). */
    async toSession(c: CallContext): Promise<Session> {
      const cookie = sessionCookieHeader(c.cookie);
      if (!cookie) throw new UpstreamError(401, 'No valid session credentials found in the request.', undefined, { upstream: 'ory', errorId: 'session_inactive' });
      try {
        // The cookie goes as the call's own parameter; the transport adds the request id and the deadline.
        const options = transport.requestOptions({ requestId: c.requestId, signal: c.signal });
        const response = await transport.resendIfReset(() => frontend.toSession({ cookie }, options));
        const parsed = sessionSchema.safeParse(response.data);
        if (!parsed.success) {
          throw new UpstreamError(502, 'ory answered in an unexpected shape', undefined, {
            kind: 'invalid_response',
            upstream: 'ory',
            detail: parsed.error.message.slice(0, 2000),
          });
        }
        return parsed.data;
      } catch (error) {
        throw transport.failure(error, 'toSession');
      }
    },
  };
}

export type OryClient = ReturnType<typeof createOryClient>;
