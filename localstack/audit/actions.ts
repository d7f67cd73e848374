/**
 * The audit log's name for each write, by method and route pattern (a project's admin paths without their
 * `/project-api/:slug` prefix). A control-plane write not named here is still recorded, under a name made
 * of its path (`actionFor`); a project's admin API records only the writes named here (its other writes are
 * the OAuth2 flows that applications drive, not changes a member makes).
 */
const CONTROL_PLANE: Record<string, string> = {
  'POST /workspaces': 'workspace.create',
  'PUT /workspaces/:workspace': 'workspace.update',
  'DELETE /workspaces/:workspace': 'workspace.delete',
  'POST /workspaces/:workspace/add/:project_id': 'project.move',
  'POST /workspaces/:workspace/tokens': 'workspace_api_key.create',
  'DELETE /workspaces/:workspace/tokens/:token_id': 'workspace_api_key.delete',
  'POST /workspaces/:workspace/invites': 'workspace_invite.create',
  'DELETE /workspaces/:workspace/members/:member': 'workspace_member.remove',
  'PUT /workspaces/:workspace/members/:member/role': 'workspace_member.role_change',
  'POST /workspaces/:workspace/subscription': 'workspace_subscription.create',
  'PUT /workspaces/:workspace/subscription': 'workspace_subscription.update',
  'POST /projects': 'project.create',
  'PUT /projects/:project_id': 'project.config_update',
  'PATCH /projects/:project_id': 'project.config_patch',
  'PATCH /projects/:project_id/revision/:revision_id': 'project.config_patch',
  'PUT /normalized/projects/:project_id': 'project.config_update',
  'PATCH /normalized/projects/:project_id': 'project.config_patch',
  'PATCH /normalized/projects/:project_id/revision/:revision_id': 'project.config_patch',
  'POST /normalized/projects': 'project.create',
  'DELETE /projects/:project_id': 'project.delete',
  'PUT /projects/:project_id/environment': 'project.environment_change',
  'POST /projects/:project_id/revisions/:revision_id/restore': 'project.config_restore',
  'POST /projects/:project/tokens': 'project_api_key.create',
  'DELETE /projects/:project/tokens/:token_id': 'project_api_key.delete',
  'POST /projects/:project/invites': 'project_invite.create',
  'DELETE /projects/:project_id/members/:member': 'project_member.remove',
  'PUT /projects/:project_id/members/:member/role': 'project_member.role_change',
  'PUT /invites/:invite/accept': 'invite.accept',
  'PUT /invites/:invite/decline': 'invite.decline',
  'PUT /invites/:invite/cancel': 'invite.cancel',
  'PUT /invites/:invite/link': 'invite.resend',
  'DELETE /invites/:invite': 'invite.delete',
  'POST /projects/:project_id/eventstreams': 'event_stream.create',
  'PUT /projects/:project_id/eventstreams/:event_stream_id': 'event_stream.update',
  'DELETE /projects/:project_id/eventstreams/:event_stream_id': 'event_stream.delete',
  'POST /projects/:project_id/eventstreams/:event_stream_id/deliveries/:delivery_id/replay': 'event_stream.replay',
  'POST /projects/:project_id/eventstreams/:event_stream_id/test': 'event_stream.test',
  'POST /identity-schemas': 'identity_schema.create',
  'PATCH /identity-schemas/:schema_id': 'identity_schema.update',
  'DELETE /identity-schemas/:schema_id': 'identity_schema.delete',
  'POST /projects/:project_id/cname': 'custom_domain.create',
  'DELETE /projects/:project_id/subscription': 'project_subscription.delete',
};

const DATA_PLANE: Record<string, string> = {
  'POST /admin/identities': 'identity.create',
  'PATCH /admin/identities': 'identity.batch',
  'PUT /admin/identities/:id': 'identity.update',
  'PATCH /admin/identities/:id': 'identity.patch',
  'DELETE /admin/identities/:id': 'identity.delete',
  'DELETE /admin/identities/:id/credentials/:type': 'identity.credential_delete',
  'DELETE /admin/identities/:id/sessions': 'identity.sessions_revoke',
  'POST /admin/recovery/link': 'identity.recovery_link_create',
  'POST /admin/recovery/code': 'identity.recovery_code_create',
  'DELETE /admin/sessions/:id': 'session.revoke',
  'PATCH /admin/sessions/:id/extend': 'session.extend',
  'POST /admin/clients': 'oauth2_client.create',
  'PUT /admin/clients/:id': 'oauth2_client.update',
  'PATCH /admin/clients/:id': 'oauth2_client.patch',
  'DELETE /admin/clients/:id': 'oauth2_client.delete',
  'POST /admin/clients/:id/secrets/rotate': 'oauth2_client.secret_rotate',
  'DELETE /admin/clients/:id/secrets/rotate': 'oauth2_client.secret_rotation_cleanup',
  'PUT /admin/clients/:id/lifespans': 'oauth2_client.lifespans_update',
  'POST /admin/keys/:set': 'oauth2_key_set.create',
  'PUT /admin/keys/:set': 'oauth2_key_set.update',
  'PUT /admin/keys/:set/:kid': 'oauth2_key.update',
  'DELETE /admin/keys/:set': 'oauth2_key_set.delete',
  'DELETE /admin/keys/:set/:kid': 'oauth2_key.delete',
  'POST /admin/trust/grants/jwt-bearer/issuers': 'oauth2_trusted_issuer.create',
  'DELETE /admin/trust/grants/jwt-bearer/issuers/:id': 'oauth2_trusted_issuer.delete',
  'DELETE /admin/oauth2/auth/sessions/consent': 'oauth2_consent.revoke',
  'DELETE /admin/oauth2/auth/sessions/login': 'oauth2_login_session.revoke',
  'PUT /admin/relation-tuples': 'relationship.create',
  'PATCH /admin/relation-tuples': 'relationship.patch',
  'DELETE /admin/relation-tuples': 'relationship.delete',
};

/** Control-plane writes that change nothing a member made: questions sent as POST, a console's own navigation, developer tools. */
const NOT_CHANGES = new Set([
  'POST /identity-schemas/validate',
  'POST /projects/:project/metrics/events',
  'POST /projects/:project_id/access',
  'POST /workspaces/:workspace/access',
  'PUT /console/active/project',
]);

const VERB: Record<string, string> = { POST: 'create', PUT: 'update', PATCH: 'update', DELETE: 'delete' };

/** `POST /projects/:project_id/things/:id/frob` → `project.things.frob.create`: the path's fixed words and the method. */
function derived(method: string, url: string): string {
  const words = url
    .split('/')
    .filter((s) => s !== '' && !s.startsWith(':'))
    .map((s) => s.replace(/s$/, '').replace(/[^a-z0-9]+/gi, '_').toLowerCase());
  return [...words, VERB[method] ?? method.toLowerCase()].join('.');
}

/** The action a write is recorded as, or null when it is not recorded. */
export function actionFor(surface: 'control-plane' | 'data-plane', method: string, url: string): string | null {
  const key = `${method} ${url}`;
  if (surface === 'data-plane') return DATA_PLANE[key] ?? null;
  if (NOT_CHANGES.has(key) || url.startsWith('/local/')) return null;
  return CONTROL_PLANE[key] ?? derived(method, url);
}

/** What kind of object an action names: the part before the dot (`project_api_key.create` → `project_api_key`). */
export const targetTypeOf = (action: string): string => action.split('.')[0]!;

