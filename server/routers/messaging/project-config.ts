import { TRPCError } from '@trpc/server';
import { EmailConfigError } from '../../../shared/domain/email-config';
import { TemplateError } from '../../../shared/domain/email-templates';
import type { Context } from '../../trpc/context';

type Json = Record<string, unknown>;
const obj = (v: unknown): Json => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Json) : {});

export interface CourierConfig {
  revisionId: string;
  /** `services.identity.config.courier` of the project's current revision ({} when it has none). */
  courier: Json;
  has: { identity: boolean; config: boolean };
}

/** The project's courier config, read from the control plane with the caller's cookie. */
export async function readCourier(ctx: Context, projectId: string): Promise<CourierConfig> {
  const project = await ctx.deps.backoffice.getProject(ctx.call, projectId);
  const identity = project.services.identity;
  const config = obj(identity).config;
  return {
    revisionId: project.revision_id,
    courier: obj(obj(config).courier),
    has: { identity: typeof identity === 'object' && identity !== null, config: typeof config === 'object' && config !== null },
  };
}

/**
 * Writes the edited courier config as one JSON patch on the revision it was read from, so every other field
 * of the project survives and an edit racing another answers CONFLICT instead of overwriting it.
 */
export async function writeCourier(ctx: Context, projectId: string, read: CourierConfig, courier: Json): Promise<void> {
  const ops: { op: 'add'; path: string; value: unknown }[] = [];
  if (!read.has.identity) ops.push({ op: 'add', path: '/services/identity', value: { config: {} } });
  else if (!read.has.config) ops.push({ op: 'add', path: '/services/identity/config', value: {} });
  ops.push({ op: 'add', path: '/services/identity/config/courier', value: courier });
  await ctx.deps.backoffice.patchProjectWithRevision(ctx.call, projectId, read.revisionId, ops);
}

/** A rule's refusal (a template that does not render, a delivery setting that is missing) is the caller's to fix. */
export function asBadRequest<T>(fn: () => T): T {
  try {
    return fn();
  } catch (err) {
    if (err instanceof EmailConfigError || err instanceof TemplateError) throw new TRPCError({ code: 'BAD_REQUEST', message: err.message });
    throw err;
  }
}
