import type Provider from 'oidc-provider';
import { CONSENT_SESSION } from './provider';
import type { ArtefactStore, ClientStore, StoredClient } from './storage';

/**
 * Hydra's login and consent requests over oidc-provider's interactions: a challenge is an interaction's uid,
 * accepting or rejecting one records the interaction's result, and the answer's `redirect_to` sends the browser
 * back to oidc-provider, which carries on the authorization with the browser's own cookies.
 */
export interface ChallengeDeps {
  provider: Provider;
  clients: ClientStore;
  artefacts: ArtefactStore;
  now(): number;
}

export class ChallengeError extends Error {
  constructor(
    readonly status: 400 | 404 | 410,
    message: string,
  ) {
    super(message);
  }
}

/** Hydra answers a client without its secret. */
export function withoutSecret(client: StoredClient): StoredClient {
  const { client_secret: _secret, ...rest } = client;
  return rest as StoredClient;
}

async function interactionFor(deps: ChallengeDeps, challenge: string, prompt: 'login' | 'consent') {
  const interaction = challenge ? await deps.provider.Interaction.find(challenge) : undefined;
  if (!interaction || interaction.prompt.name !== prompt) {
    throw new ChallengeError(404, `The ${prompt} request could not be found. Check the ${prompt}_challenge.`);
  }
  if (interaction.result) throw new ChallengeError(410, `The ${prompt} request was already handled.`);
  const client = await deps.clients.get(String(interaction.params.client_id ?? ''));
  if (!client) throw new ChallengeError(404, 'The client of this request no longer exists.');
  return { interaction, client };
}

const scopesOf = (params: Record<string, unknown>) =>
  typeof params.scope === 'string' ? params.scope.split(' ').filter(Boolean) : [];

const audienceOf = (params: Record<string, unknown>) =>
  typeof params.audience === 'string' ? params.audience.split(' ').filter(Boolean) : [];

export async function getLoginRequest(deps: ChallengeDeps, challenge: string) {
  const { interaction, client } = await interactionFor(deps, challenge, 'login');
  return {
    challenge,
    client: withoutSecret(client),
    request_url: interaction.returnTo,
    requested_scope: scopesOf(interaction.params),
    requested_access_token_audience: audienceOf(interaction.params),
    skip: Boolean(interaction.session?.accountId),
    subject: interaction.session?.accountId ?? '',
    session_id: interaction.session?.uid,
    oidc_context: {
      ...(interaction.params.ui_locales ? { ui_locales: String(interaction.params.ui_locales).split(' ') } : {}),
      ...(interaction.params.login_hint ? { login_hint: String(interaction.params.login_hint) } : {}),
    },
  };
}

export async function getConsentRequest(deps: ChallengeDeps, challenge: string) {
  const { interaction, client } = await interactionFor(deps, challenge, 'consent');
  return {
    challenge,
    client: withoutSecret(client),
    request_url: interaction.returnTo,
    requested_scope: scopesOf(interaction.params),
    requested_access_token_audience: audienceOf(interaction.params),
    skip: false,
    subject: interaction.session?.accountId ?? '',
    login_session_id: interaction.session?.uid,
    oidc_context: {},
  };
}

async function finish(deps: ChallengeDeps, interaction: Awaited<ReturnType<typeof interactionFor>>['interaction'], result: Record<string, unknown>) {
  interaction.result = { ...interaction.lastSubmission, ...result };
  await interaction.save(Math.max(1, (interaction.exp ?? deps.now() + 60) - deps.now()));
  return { redirect_to: interaction.returnTo };
}

export interface AcceptLogin {
  subject: string;
  remember?: boolean;
  remember_for?: number;
  acr?: string;
  amr?: string[];
}

export async function acceptLogin(deps: ChallengeDeps, challenge: string, body: AcceptLogin) {
  const { interaction } = await interactionFor(deps, challenge, 'login');
  if (interaction.session?.accountId && interaction.session.accountId !== body.subject) {
    throw new ChallengeError(400, 'The subject differs from the one already signed in; log the user out first.');
  }
  return finish(deps, interaction, {
    login: {
      accountId: body.subject,
      remember: body.remember ?? false,
      ...(body.acr ? { acr: body.acr } : {}),
      ...(body.amr?.length ? { amr: body.amr } : {}),
    },
  });
}

export interface AcceptConsent {
  grant_scope?: string[];
  grant_access_token_audience?: string[];
  remember?: boolean;
  session?: { id_token?: Record<string, unknown>; access_token?: Record<string, unknown> };
}

export async function acceptConsent(deps: ChallengeDeps, challenge: string, body: AcceptConsent) {
  const { interaction } = await interactionFor(deps, challenge, 'consent');
  const { provider } = deps;
  const accountId = interaction.session?.accountId;
  if (!accountId) throw new ChallengeError(400, 'The consent request has no signed-in subject; accept its login first.');
  const grant =
    (interaction.grantId ? await provider.Grant.find(interaction.grantId) : undefined) ??
    new provider.Grant({ accountId, clientId: String(interaction.params.client_id) });
  const granted = new Set(body.grant_scope ?? []);
  const requested = scopesOf(interaction.params).filter((s) => granted.has(s));
  if (requested.length) grant.addOIDCScope(requested.join(' '));
  // As with Hydra, a scope the user left out is simply not granted (oidc-provider would otherwise ask again).
  const refused = scopesOf(interaction.params).filter((s) => !granted.has(s));
  if (refused.length) grant.rejectOIDCScope(refused.join(' '));
  const details = interaction.prompt.details as { missingOIDCClaims?: string[]; missingResourceScopes?: Record<string, string[]> };
  if (details.missingOIDCClaims?.length) grant.addOIDCClaims(details.missingOIDCClaims);
  for (const [resource, scopes] of Object.entries(details.missingResourceScopes ?? {})) {
    const allowed = scopes.filter((s) => granted.has(s));
    grant.addResourceScope(resource, allowed.join(' '));
  }
  const grantId = await grant.save();
  await deps.artefacts.upsert(CONSENT_SESSION, grantId, {
    payload: { id_token: body.session?.id_token ?? {}, access_token: body.session?.access_token ?? {} },
    expiresAt: null,
    grantId,
    userCode: null,
    uid: null,
  });
  return finish(deps, interaction, { consent: { grantId } });
}

export interface RejectRequest {
  error?: string;
  error_description?: string;
}

export async function rejectRequest(deps: ChallengeDeps, challenge: string, prompt: 'login' | 'consent', body: RejectRequest) {
  const { interaction } = await interactionFor(deps, challenge, prompt);
  interaction.result = {
    error: body.error || 'access_denied',
    error_description: body.error_description || 'The resource owner denied the request',
  };
  await interaction.save(Math.max(1, (interaction.exp ?? deps.now() + 60) - deps.now()));
  return { redirect_to: interaction.returnTo };
}
