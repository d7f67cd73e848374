/**
 * Calls the local stack serves that Ory's published spec has no route for, each mapped (per CONTRACT.md)
 * to the orphan schema of the spec that describes its answer. `responses` maps a status to a schema name
 * (null = no body); `default` covers the error statuses (4xx/5xx). Local-only routes are no Ory call at all.
 */
export type OrphanRoute =
  | { method: string; path: string; responses: Record<string, string | null> }
  | { method: string; path: string; localOnly: string };

const ERRORS = { default: 'errorGeneric' };

export const ORPHAN_ROUTES: OrphanRoute[] = [
  { method: 'POST', path: '/normalized/projects', responses: { 201: 'normalizedProject', ...ERRORS } },
  { method: 'GET', path: '/normalized/projects/{project_id}', responses: { 200: 'normalizedProject', ...ERRORS } },
  { method: 'PUT', path: '/normalized/projects/{project_id}', responses: { 200: 'normalizedProject', ...ERRORS } },
  {
    method: 'PATCH',
    path: '/normalized/projects/{project_id}/revision/{revision_id}',
    responses: { 200: 'normalizedProject', ...ERRORS },
  },
  // The spec names no schema for the environment call; the local stack answers the project.
  { method: 'PUT', path: '/projects/{project_id}/environment', responses: { 200: 'project', ...ERRORS } },
  { method: 'POST', path: '/projects/{project_id}/access', responses: { 200: 'permissionsOnProject', ...ERRORS } },
  { method: 'POST', path: '/workspaces/{workspace}/access', responses: { 200: 'permissionsOnWorkspace', ...ERRORS } },
  // Workspace members have the shape of project members (projectMember has source: project|workspace).
  { method: 'GET', path: '/workspaces/{workspace}/members', responses: { 200: 'projectMembers', ...ERRORS } },
  { method: 'DELETE', path: '/workspaces/{workspace}/members/{member}', responses: { 204: null, ...ERRORS } },
  // The console account deleting itself (Ory publishes no such call).
  { method: 'DELETE', path: '/account', responses: { 204: null, ...ERRORS } },
  // Deleting an empty workspace (Ory publishes no such call).
  { method: 'DELETE', path: '/workspaces/{workspace}', responses: { 204: null, ...ERRORS } },
  {
    method: 'POST',
    path: '/workspaces/{workspace}/add/{project_id}',
    responses: { 200: 'projectMetadata', ...ERRORS },
  },
  // Invites (CONTRACT.md: orphans memberInvite, memberInvites, CreateInviteResponse, inviteTokenBody).
  { method: 'POST', path: '/projects/{project}/invites', responses: { 201: 'CreateInviteResponse', ...ERRORS } },
  { method: 'GET', path: '/projects/{project}/invites', responses: { 200: 'memberInvites', ...ERRORS } },
  { method: 'POST', path: '/workspaces/{workspace}/invites', responses: { 201: 'CreateInviteResponse', ...ERRORS } },
  { method: 'GET', path: '/workspaces/{workspace}/invites', responses: { 200: 'memberInvites', ...ERRORS } },
  { method: 'GET', path: '/invites', responses: { 200: 'memberInvites', ...ERRORS } },
  { method: 'PUT', path: '/invites/{invite}/accept', responses: { 200: 'memberInvite', ...ERRORS } },
  { method: 'PUT', path: '/invites/{invite}/decline', responses: { 200: 'memberInvite', ...ERRORS } },
  { method: 'PUT', path: '/invites/{invite}/cancel', responses: { 200: 'memberInvite', ...ERRORS } },
  { method: 'PUT', path: '/invites/{invite}/link', responses: { 200: 'memberInvite', ...ERRORS } },
  { method: 'DELETE', path: '/invites/{invite}', responses: { 204: null, ...ERRORS } },
  {
    method: 'GET',
    path: '/public/invites/{invite}',
    localOnly: 'the public invite view: the spec names the call but no schema; it answers who invited whom to what',
  },
  // Messaging (CONTRACT.md: orphan emailTemplateData; a test send answers the queued courier message).
  {
    method: 'GET',
    path: '/.well-known/project-defaults/email-templates/{template}/{variant}',
    responses: { 200: 'emailTemplateData', ...ERRORS },
  },
  { method: 'POST', path: '/projects/{project_id}/courier/test-messages', responses: { 201: 'message', ...ERRORS } },
  { method: 'GET', path: '/quota/project/{project}/{feature}', responses: { 200: 'quotaUsage', ...ERRORS } },
  // Custom domains (CONTRACT.md: no SDK method; customDomain, listCustomDomains, create/setCustomDomainBody).
  { method: 'GET', path: '/projects/{project_id}/cname', responses: { 200: 'listCustomDomains', ...ERRORS } },
  { method: 'POST', path: '/projects/{project_id}/cname', responses: { 201: 'customDomain', ...ERRORS } },
  { method: 'PUT', path: '/cname/{cname_id}', responses: { 200: 'customDomain', ...ERRORS } },
  { method: 'DELETE', path: '/cname/{cname_id}', responses: { 204: null, ...ERRORS } },
  { method: 'PUT', path: '/projects/{project_id}/cname/{cname_id}', responses: { 200: 'customDomain', ...ERRORS } },
  { method: 'DELETE', path: '/projects/{project_id}/cname/{cname_id}', responses: { 204: null, ...ERRORS } },
  { method: 'GET', path: '/quota/workspace/{workspace}/{feature}', responses: { 200: 'quotaUsage', ...ERRORS } },
  // Metrics (CONTRACT.md: getProjectMetrics is in the 1.11 spec only; the rest are SPEC orphans).
  { method: 'GET', path: '/projects/{project}/metrics', responses: { 200: 'getProjectMetrics', ...ERRORS } },
  { method: 'GET', path: '/projects/{project}/metrics/attributes', responses: { 200: 'getAttributesCount', ...ERRORS } },
  { method: 'GET', path: '/projects/{project}/metrics/event_types', responses: { 200: 'getMetricsEventTypes', ...ERRORS } },
  { method: 'GET', path: '/projects/{project}/metrics/event_attributes', responses: { 200: 'getMetricsEventAttributes', ...ERRORS } },
  { method: 'GET', path: '/projects/{project}/metrics/active_users', localOnly: "a project's daily active users counted from its events, and its sessions active now" },
  { method: 'GET', path: '/projects/{project}/metrics/sessions', responses: { 200: 'getSessionActivity', ...ERRORS } },
  { method: 'POST', path: '/projects/{project}/metrics/events', responses: { 200: 'getProjectEvents', ...ERRORS } },
  // Identity schemas (CONTRACT.md: orphans managedIdentitySchema(s), identitySchemaPreset(s), schemaPatch,
  // getManagedIdentitySchemaLocation, managedIdentitySchemaValidationResult, identityMetaSchema).
  { method: 'GET', path: '/identity-schemas', responses: { 200: 'managedIdentitySchemas', ...ERRORS } },
  { method: 'POST', path: '/identity-schemas', responses: { 201: 'managedIdentitySchema', ...ERRORS } },
  { method: 'GET', path: '/identity-schemas/{schema_id}', responses: { 200: 'getManagedIdentitySchemaLocation', ...ERRORS } },
  { method: 'PUT', path: '/identity-schemas/{schema_id}', responses: { 200: 'managedIdentitySchema', ...ERRORS } },
  { method: 'POST', path: '/identity-schemas/validate', responses: { 200: 'managedIdentitySchemaValidationResult', ...ERRORS } },
  { method: 'GET', path: '/presets/identity/schemas', responses: { 200: 'identitySchemaPresets', ...ERRORS } },
  { method: 'GET', path: '/.well-known/identity-meta-schema', responses: { 200: 'identityMetaSchema', ...ERRORS } },
  // Billing (CONTRACT.md: orphans subscription, createSubscriptionBody, updateSubscriptionBody).
  // Event streams' delivery log, replay and test send: the local stack's own, beside EventsApi's four calls.
  { method: 'GET', path: '/projects/{project_id}/eventstreams/{event_stream_id}/attempts', localOnly: "an event stream's delivery log (each attempt's status, response code and latency)" },
  { method: 'GET', path: '/projects/{project_id}/identity-hooks/calls', localOnly: "the log of a project's identity web hook calls (each call's status, response code and latency)" },
  { method: 'POST', path: '/projects/{project_id}/eventstreams/{event_stream_id}/deliveries/{delivery_id}/replay', localOnly: 'an event stream delivery sent once more' },
  { method: 'POST', path: '/projects/{project_id}/eventstreams/{event_stream_id}/test', localOnly: 'a test event sent to an event stream now' },
  // The history of a project's configuration: Ory Network keeps revisions but publishes no call to list or restore them.
  { method: 'GET', path: '/projects/{project_id}/revisions', localOnly: "a project's configuration revisions, newest first, with their authors" },
  { method: 'GET', path: '/projects/{project_id}/revisions/{revision_id}', localOnly: 'one configuration revision and the one before it, secrets redacted' },
  { method: 'POST', path: '/projects/{project_id}/revisions/{revision_id}/restore', localOnly: 'an old configuration revision restored as a new one' },
  // The audit log of a workspace: Ory Network publishes no such call.
  { method: 'GET', path: '/workspaces/{workspace}/audit-log', localOnly: "a workspace's audit log, newest first: actor, action, target, time and outcome" },
  { method: 'GET', path: '/projects/{project_id}/audit-log', localOnly: "a project's audit log, newest first: actor, action, target, time and outcome" },
  { method: 'GET', path: '/workspaces/{workspace}/audit-log/{event_id}', localOnly: "one event of a workspace's audit log, with its object before and after the write" },
  { method: 'GET', path: '/projects/{project_id}/audit-log/{event_id}', localOnly: "one event of a project's audit log, with its object before and after the write" },
  { method: 'GET', path: '/pricing', localOnly: "the spec §3 plan catalogue (id, legacyIds, name, price, priceYearly, features, colours) with prices per currency; Ory's spec has no such route" },
  { method: 'GET', path: '/workspaces/{workspace}/subscription', responses: { 200: 'subscription', ...ERRORS } },
  { method: 'POST', path: '/workspaces/{workspace}/subscription', responses: { 201: 'subscription', ...ERRORS } },
  { method: 'PUT', path: '/workspaces/{workspace}/subscription', responses: { 200: 'subscription', ...ERRORS } },
  { method: 'POST', path: '/subscription', responses: { 201: 'subscription', ...ERRORS } },
  { method: 'GET', path: '/subscription/{subscription_id}', responses: { 200: 'subscription', ...ERRORS } },
  { method: 'PUT', path: '/subscription/{subscription_id}', responses: { 200: 'subscription', ...ERRORS } },
  { method: 'DELETE', path: '/projects/{project_id}/subscription', responses: { 204: null, ...ERRORS } },
  { method: 'GET', path: '/subscription/{subscription_id}/invoices', responses: { 200: 'listInvoicesResponse', ...ERRORS } },
  // The portal calls answer customerPortalAvailability with the portal link's `url` when it is available.
  { method: 'GET', path: '/customer/portal', responses: { 200: 'customerPortalAvailability', ...ERRORS } },
  { method: 'GET', path: '/workspaces/{workspace}/customer-portal', responses: { 200: 'customerPortalAvailability', ...ERRORS } },
  { method: 'GET', path: '/portal/{token}', localOnly: "the local stack's stand-in for the payment provider's portal page (HTML)" },
  { method: 'POST', path: '/ingest/batch', localOnly: "the analytics upstream (PostHog's batch shape); no Ory API" },
  { method: 'GET', path: '/ingest/surveys', localOnly: 'the analytics upstream: surveys (none)' },
  { method: 'GET', path: '/ingest/web_experiments', localOnly: 'the analytics upstream: web experiments (none)' },
  { method: 'GET', path: '/ingest/remote_config', localOnly: "the analytics upstream: the client's flush interval and session timeout" },
  { method: 'GET', path: '/console/oauth2/login', localOnly: "the console's own OAuth2 server takes the console sign-in as its login (localstack/oauth2/console.ts)" },
  { method: 'GET', path: '/local/analytics/events', localOnly: 'reads back what /ingest stored, for local development and tests' },
  { method: 'PUT', path: '/local/analytics/quota', localOnly: 'makes /ingest answer with its quota, for local development and tests' },
  { method: 'PUT', path: '/local/analytics/retention', localOnly: 'lowers how many analytics events are kept and for how long, for local development and tests' },
  { method: 'PUT', path: '/local/clock', localOnly: 'moves the billing clock forward, for local development and tests' },
  { method: 'POST', path: '/local/usage', localOnly: 'meters permission checks for a project until the permissions data plane serves them' },
  // Changing a member's role has no published call; the answer is the member (projectMember).
  { method: 'PUT', path: '/projects/{project_id}/members/{member}/role', responses: { 200: 'projectMember', ...ERRORS } },
  { method: 'PUT', path: '/workspaces/{workspace}/members/{member}/role', responses: { 200: 'projectMember', ...ERRORS } },
  // Kratos serves the link of createRecoveryLinkForIdentity on GET of updateRecoveryFlow's path; the spec
  // publishes only the POST. It answers a browser redirect (to the settings flow, or to a fresh recovery flow).
  { method: 'GET', path: '/self-service/recovery', responses: { 303: null, ...ERRORS } },
  // Likewise the link of a verification email (`use: link`) is a GET of updateVerificationFlow's path: it
  // answers a browser redirect to the verification page, whose flow says whether the address was verified.
  { method: 'GET', path: '/self-service/verification', responses: { 303: null, ...ERRORS } },
  // Kratos' social sign-in callback (selfservice/strategy/oidc RouteCallback) is no published operation: the
  // provider sends the browser back to it, and it answers a redirect (the UI, the flow, or the error page).
  { method: 'GET', path: '/self-service/methods/oidc/callback/{provider}', responses: { 303: null, ...ERRORS } },
  // Kratos' SAML routes (selfservice/strategy/saml RouteMetadata, RouteAcs) are no published operations either:
  // the service provider's metadata, the assertion consumer service the identity provider posts to, and the
  // single logout service it posts logout requests and answers to (204 when it has no logout service to answer).
  { method: 'GET', path: '/self-service/methods/saml/metadata/{provider}', localOnly: "Kratos' SAML service provider metadata: SAML XML, which no schema of the spec describes" },
  { method: 'POST', path: '/self-service/methods/saml/acs/{provider}', responses: { 303: null, ...ERRORS } },
  { method: 'POST', path: '/self-service/methods/saml/slo/{provider}', responses: { 303: null, 204: null, ...ERRORS } },
  // Kratos' isAlive/isReady; their schemas are in the spec, the routes are not.
  { method: 'GET', path: '/health/alive', responses: { 200: 'healthStatus', ...ERRORS } },
  { method: 'GET', path: '/health/ready', responses: { 200: 'healthStatus', 503: 'healthNotReadyStatus', ...ERRORS } },
  { method: 'GET', path: '/local/dns', localOnly: 'lists the records of the local DNS server custom domains are looked up in' },
  { method: 'PUT', path: '/local/dns', localOnly: 'sets a CNAME record of the local DNS server, for local development and tests' },
  { method: 'DELETE', path: '/local/dns/{name}', localOnly: 'removes a record of the local DNS server' },
  { method: 'PUT', path: '/local/plan', localOnly: 'sets the plan in force without a purchase, for local development and tests' },
  { method: 'GET', path: '/local/mailbox', localOnly: 'the local mailbox page (HTML); Ory has no such route' },
  // Branding (CONTRACT.md: orphans projectBranding, projectBrandingTheme, createProjectBranding, setProjectBrandingThemeBody).
  { method: 'GET', path: '/projects/{project}/branding', responses: { 200: 'projectBranding', ...ERRORS } },
  { method: 'POST', path: '/projects/{project}/branding', responses: { 201: 'projectBranding', ...ERRORS } },
  { method: 'POST', path: '/projects/{project}/branding/themes', responses: { 201: 'projectBrandingTheme', ...ERRORS } },
  { method: 'PUT', path: '/projects/{project}/branding/themes/{theme}', responses: { 200: 'projectBrandingTheme', ...ERRORS } },
  { method: 'DELETE', path: '/projects/{project}/branding/themes/{theme}', responses: { 204: null, ...ERRORS } },
  { method: 'PUT', path: '/projects/{project}/branding/themes/{theme}/active', responses: { 200: 'projectBranding', ...ERRORS } },
  { method: 'DELETE', path: '/projects/{project}/branding/active', responses: { 200: 'projectBranding', ...ERRORS } },
  // A project's hosted pages (HTML, the account experience): Ory serves them from its own UI host, not its API.
  ...['login', 'registration', 'recovery', 'verification', 'settings', 'error', 'consent'].map((page) => ({
    method: 'GET',
    path: `/ui/${page}`,
    localOnly: `the project's hosted ${page} page (HTML)`,
  })),
  { method: 'GET', path: '/ui', localOnly: "the project's hosted landing page for a signed-in end user (HTML)" },
  { method: 'GET', path: '/ui/', localOnly: "the project's hosted landing page for a signed-in end user (HTML)" },
  { method: 'POST', path: '/ui/consent', localOnly: 'the hosted consent form: accepts or rejects the OAuth2 consent request, then redirects' },
  { method: 'GET', path: '/ui/logout', localOnly: "the hosted OAuth2 logout page: asks whether to sign out (Hydra's logout request)" },
  { method: 'POST', path: '/ui/logout', localOnly: 'the hosted logout form: accepts the OAuth2 logout request (redirects) or rejects it' },
  { method: 'GET', path: '/ui/device', localOnly: "the hosted device verification page: asks for the user code of Hydra's device request" },
  { method: 'POST', path: '/ui/device', localOnly: 'the hosted device form: accepts the device request with the user code, then redirects' },
  { method: 'GET', path: '/ui/onboarding/{token}', localOnly: "the hosted onboarding portal of an organization's link (HTML): its single sign-on form, or why the link is refused" },
  { method: 'POST', path: '/ui/onboarding/{token}', localOnly: "the onboarding portal's form: saves the organization's OpenID Connect provider, then redirects" },
  {
    method: 'GET',
    path: '/local/mailbox/messages',
    localOnly: 'the local mailbox for tests; Ory reads mail through /admin/courier/messages instead',
  },
];
