import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Redis } from 'ioredis';
import { OryError } from '../kernel/errors';
import type { FlowKind } from './flows';
import { normalizeEmail } from '../identity/store';

export interface RateLimit {
  max: number;
  windowMs: number;
}

/** Limits on self-service submissions (login, registration, recovery, verification). */
export interface RateLimitOptions {
  /**
   * Submissions per identifier (the email or identifier sent, normalised) and flow kind, whatever
   * the client's address, so rotating addresses does not help. Every submission counts.
   */
  perIdentifier?: RateLimit;
  /** Unsuccessful submissions per client address and flow kind (the console relays all its users from one). */
  perIp?: RateLimit;
  /**
   * Counts kept in Redis, shared by every stack instance on it; without it each instance counts on its own.
   * An unreachable Redis lets submissions through rather than refusing every sign-in.
   */
  redis?: Redis;
}

/** Far above what a person does by hand; tests set them low. */
export const DEFAULT_RATE_LIMITS: Required<Omit<RateLimitOptions, 'redis'>> = {
  perIdentifier: { max: 30, windowMs: 15 * 60_000 },
  perIp: { max: 1000, windowMs: 15 * 60_000 },
};

export const RATE_LIMITED_FLOWS: ReadonlySet<FlowKind> = new Set(['login', 'registration', 'recovery', 'verification']);

/** Counts are kept per tenant (`nid`): the same email in two projects' tenants is two identifiers. */
export interface FlowLimiter {
  /** Counts this submission for `identifier`; throws 429 when the identifier or the address is over its limit. */
  admit(req: FastifyRequest, reply: FastifyReply, nid: string, kind: FlowKind, identifier: string): Promise<void>;
  /** Counts an unsuccessful submission against the client's address. */
  failed(req: FastifyRequest, nid: string, kind: FlowKind): Promise<void>;
}

type Limiter = ReturnType<FastifyInstance['createRateLimit']>;
type Verdict = Awaited<ReturnType<Limiter>>;

export const tooManyRequests = (retryAfterSeconds: number) =>
  new OryError(429, {
    id: 'rate_limit_exceeded',
    reason: `Too many attempts. Please wait ${retryAfterSeconds} second${retryAfterSeconds === 1 ? '' : 's'} before trying again.`,
    message: 'The request was rate limited',
    details: { retry_after_seconds: retryAfterSeconds },
  });

/** Registers @fastify/rate-limit on `app` (no global limit) and returns the self-service limiter. */
export async function createFlowLimiter(app: FastifyInstance, opts: RateLimitOptions = {}): Promise<FlowLimiter> {
  const limits = { ...DEFAULT_RATE_LIMITS, ...opts };
  await app.register(rateLimit, {
    global: false,
    cache: 20_000,
    ...(opts.redis ? { redis: opts.redis, nameSpace: 'localstack:flows:', skipOnError: true } : {}),
  });
  // The key of the current request for each limiter (keyGenerator only sees the request).
  const keys = new WeakMap<FastifyRequest, { identifier?: string; ip?: string }>();
  const byIdentifier = app.createRateLimit({
    max: limits.perIdentifier.max,
    timeWindow: limits.perIdentifier.windowMs,
    keyGenerator: (req) => keys.get(req)?.identifier ?? '',
  });
  const byIp = app.createRateLimit({
    max: limits.perIp.max,
    timeWindow: limits.perIp.windowMs,
    keyGenerator: (req) => keys.get(req)?.ip ?? '',
  });
  const refuse = (reply: FastifyReply, verdict: Verdict) => {
    const seconds = 'ttlInSeconds' in verdict ? Math.max(1, verdict.ttlInSeconds) : 1;
    reply.header('retry-after', String(seconds));
    return tooManyRequests(seconds);
  };
  const ipKey = (req: FastifyRequest, nid: string, kind: FlowKind) => `ip:${nid}:${kind}:${req.ip}`;

  return {
    async admit(req, reply, nid, kind, identifier) {
      keys.set(req, { ip: ipKey(req, nid, kind), identifier: `id:${nid}:${kind}:${identifier}` });
      const ip = await byIp(req, { increment: false });
      if (!ip.isAllowed && ip.remaining <= 0) throw refuse(reply, ip);
      if (!identifier) return;
      const id = await byIdentifier(req);
      if (!id.isAllowed && id.isExceeded) throw refuse(reply, id);
    },
    async failed(req, nid, kind) {
      keys.set(req, { ...keys.get(req), ip: ipKey(req, nid, kind) });
      await byIp(req);
    },
  };
}

/** The identifier a submission is about: the login identifier, the email registered, or the address a code goes to. */
export function submittedIdentifier(
  kind: FlowKind,
  body: { identifier?: string; email?: string; code?: string; traits?: { email?: string } },
  flowEmail: unknown,
): string {
  const fromFlow = typeof flowEmail === 'string' ? flowEmail : '';
  const raw =
    kind === 'login' ? body.identifier : kind === 'registration' ? body.traits?.email : body.code ? fromFlow : (body.email ?? fromFlow);
  return normalizeEmail(raw ?? '');
}
