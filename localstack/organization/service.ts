import { randomBytes } from 'node:crypto';
import { assertRoomFor } from '../billing/quota';
import { parseGoDuration } from '../kernel/go-duration';
import { badRequest, conflict } from '../kernel/errors';
import type { Queryable } from '../kernel/queryable';
import type { ProjectRow } from '../project/schema';
import type { OrganizationBodyInput } from '../../shared/schemas/organizations';
import type { OnboardingPortalLinkRow, OrganizationRow } from './schema';
import { deleteOrganizationRow, insertLink, insertOrganization, organizationsWithDomains, updateLinkRow, updateOrganizationRow } from './store';

type Project = Pick<ProjectRow, 'id' | 'workspace_id'>;

const MINUTE = 60n * 1_000_000_000n;
const MAX_LIFESPAN = 8760n * 60n * MINUTE;

/** `session_lifespan`: a Go duration from 1m to 8760h, or empty for the project's own lifespan (stored as null). */
function lifespanOf(text: string | undefined): string | null | undefined {
  if (text === undefined) return undefined;
  if (text === '') return null;
  const ns = parseGoDuration(text);
  if (ns === null || ns < MINUTE || ns > MAX_LIFESPAN) {
    throw badRequest('session_lifespan must be a duration from 1m to 8760h, such as 24h.', { field: 'session_lifespan' });
  }
  return text;
}

/** A domain listed by another organization of the project is refused: sign-in could not tell where to go. */
async function assertDomainsFree(q: Queryable, projectId: string, domains: string[] | undefined, self?: string): Promise<void> {
  if (!domains?.length) return;
  const taken = await organizationsWithDomains(q, projectId, domains, self);
  if (taken.length === 0) return;
  const clash = domains.filter((d) => taken.some((o) => o.domains.includes(d)));
  throw conflict(`The domain ${clash.join(', ')} belongs to the organization "${taken[0]!.label}" already; a domain can belong to one organization of a project.`);
}

/** Creates an organization within the plan's `organizations` (feature_not_available / quota_exceeded otherwise). */
export async function createOrganization(q: Queryable, project: Project, body: OrganizationBodyInput, now: Date): Promise<OrganizationRow> {
  if (!body.label) throw badRequest('label is required: give the organization a name.', { field: 'label' });
  const session_lifespan = lifespanOf(body.session_lifespan) ?? null;
  await assertRoomFor(q, { kind: 'project', project }, 'organizations', 'organizations', now);
  const domains = body.domains ?? [];
  await assertDomainsFree(q, project.id, domains);
  return insertOrganization(q, {
    project_id: project.id,
    label: body.label,
    domains,
    default_region: body.default_region ?? null,
    session_lifespan,
    created_at: now,
    updated_at: now,
  });
}

/** Changes what the body gives; an empty lifespan clears it. */
export async function updateOrganization(q: Queryable, row: OrganizationRow, body: OrganizationBodyInput, now: Date): Promise<OrganizationRow> {
  const session_lifespan = lifespanOf(body.session_lifespan);
  await assertDomainsFree(q, row.project_id, body.domains, row.id);
  return updateOrganizationRow(q, row.id, {
    ...(body.label !== undefined ? { label: body.label } : {}),
    ...(body.domains !== undefined ? { domains: body.domains } : {}),
    ...(body.default_region !== undefined ? { default_region: body.default_region } : {}),
    ...(session_lifespan !== undefined ? { session_lifespan } : {}),
    updated_at: now,
  });
}

export const deleteOrganization = (q: Queryable, row: OrganizationRow) => deleteOrganizationRow(q, row.id);

/** A link lasts a week unless told otherwise, and at most 90 days; it must end in the future. */
export const LINK_DEFAULT_MS = 7 * 24 * 3600_000;
const LINK_MAX_MS = 90 * 24 * 3600_000;

function expiryOf(expiresAt: string | undefined, now: Date, fallback: Date): Date {
  if (expiresAt === undefined) return fallback;
  const at = new Date(expiresAt);
  if (at.getTime() <= now.getTime()) throw badRequest('expires_at must be in the future.', { field: 'expires_at' });
  if (at.getTime() - now.getTime() > LINK_MAX_MS) throw badRequest('expires_at must be at most 90 days away.', { field: 'expires_at' });
  return at;
}

/** A new onboarding link of an organization: an unguessable token, on plans with `onboarding_portal`. */
export async function createLink(
  q: Queryable,
  project: Project,
  organization: OrganizationRow,
  body: { enable_sso: boolean; enable_scim: boolean; expires_at?: string | undefined; custom_hostname_id?: string | null | undefined },
  now: Date,
): Promise<OnboardingPortalLinkRow> {
  await assertRoomFor(q, { kind: 'project', project }, 'onboarding_portal', 'the onboarding portal', now);
  return insertLink(q, {
    organization_id: organization.id,
    project_id: project.id,
    value: randomBytes(32).toString('base64url'),
    enable_sso: body.enable_sso,
    enable_scim: body.enable_scim,
    custom_hostname_id: body.custom_hostname_id ?? null,
    expires_at: expiryOf(body.expires_at, now, new Date(now.getTime() + LINK_DEFAULT_MS)),
    created_at: now,
    updated_at: now,
  });
}

export async function updateLink(q: Queryable, row: OnboardingPortalLinkRow, body: { enable_sso: boolean; enable_scim: boolean; expires_at?: string | undefined }, now: Date) {
  return updateLinkRow(q, row.id, {
    enable_sso: body.enable_sso,
    enable_scim: body.enable_scim,
    ...(body.expires_at !== undefined ? { expires_at: expiryOf(body.expires_at, now, row.expires_at) } : {}),
    updated_at: now,
  });
}
