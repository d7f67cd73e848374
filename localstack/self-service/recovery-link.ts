import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { route } from '../kernel/route';
import { redeemCode } from './codes';
import { issueCsrfToken } from './csrf';
import { baseOf, isSecure, type IdentityDeps } from '../kernel/identity-deps';
import { flowNotFound, OryError } from '../kernel/errors';
import { createFlow, isExpired, loadFlow, saveFlow } from './flows';
import { queryValue, seeOther } from '../kernel/http';
import { identitySettings } from '../kernel/identity-settings';
import { flowUiLink } from './flow-routes';
import { chooseCodeNodes } from './nodes';
import { completeRecovery } from './recovery';
import { tenantOf } from '../kernel/tenant';
import { texts } from './texts';

const linkQuery = z.looseObject({ flow: queryValue, token: queryValue });

/**
 * GET /self-service/recovery?flow=…&token=…: the recovery link an administrator created for an identity
 * (`POST /admin/recovery/link`). Opened in a browser, a valid token signs the identity in with a privileged
 * session and lands on its settings flow; a used, wrong or expired one lands on a fresh recovery flow that
 * says so (Kratos' 4060004), never on an error page.
 */
export function registerRecoveryLink(app: FastifyInstance, deps: IdentityDeps): void {
  const { db } = deps.ctx;
  route(app, deps.ctx, {
    method: 'GET',
    url: '/self-service/recovery',
    query: linkQuery,
    auth: 'public',
    transaction: false,
    handler: async ({ req, reply, query }) => {
      const tenant = tenantOf(req);
      if (!query.flow || !query.token) {
        throw new OryError(400, { reason: 'The recovery link needs both its flow and token query parameters; open the whole link.' });
      }
      const flow = await loadFlow(db, tenant.nid, query.flow, 'recovery');
      if (!flow) throw flowNotFound();
      const csrf = issueCsrfToken(req, reply, tenant, isSecure(deps, req));
      const found =
        isExpired(flow, deps.ctx.clock.now()) || flow.state === 'passed_challenge'
          ? null
          : await db.tx((q) => redeemCode(q, tenant.nid, flow.id, 'recovery', query.token!, deps.ctx.clock.now()));
      if (!found) {
        const retry = await createFlow(db, {
          nid: tenant.nid,
          kind: 'recovery',
          state: 'choose_method',
          csrfToken: csrf,
          requestUrl: `${tenant.base}/self-service/recovery/browser`,
          ui: { nodes: chooseCodeNodes(csrf), messages: [texts.recoveryLinkInvalid()] },
          lifespanMs: deps.flowLifespanMs,
          now: deps.ctx.clock.now(),
        });
        return seeOther(reply, flowUiLink(tenant, await identitySettings(db, tenant.nid), 'recovery', { flow: retry.id }));
      }
      // The settings flow that follows is a browser flow bound to this browser's anti-CSRF cookie.
      flow.csrf_token = csrf;
      const outcome = await completeRecovery(deps, { req, reply, flow, db, tenant, base: baseOf(deps, req) }, found, 'link_recovery');
      if (outcome.type === 'flow') {
        // A web hook refused the recovery: the recovery page shows its messages.
        await saveFlow(db, flow, deps.ctx.clock.now());
        return seeOther(reply, flowUiLink(tenant, await identitySettings(db, tenant.nid), 'recovery', { flow: flow.id }));
      }
      if (outcome.type !== 'location') throw new Error('a recovery link flow is a browser flow');
      return seeOther(reply, outcome.to);
    },
  });
}
