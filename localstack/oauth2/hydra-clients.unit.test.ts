import { describe, expect, it } from 'vitest';
import { clientView, decodeClientBody, DEFAULT_CLIENT_SCOPE, HydraError, validateClient } from './hydra-clients';

const opts = { subjectTypes: ['public' as const] };
const refused = (fn: () => unknown) => {
  try {
    fn();
  } catch (err) {
    if (err instanceof HydraError) return { status: err.status, ...err.body };
    throw err;
  }
  throw new Error('expected a refusal');
};

describe("Hydra's client rules", () => {
  it('fills in the defaults of an empty client', () => {
    const c = validateClient({ client_id: 'a' }, opts);
    expect(c).toMatchObject({
      token_endpoint_auth_method: 'client_secret_basic',
      scope: DEFAULT_CLIENT_SCOPE,
      subject_type: 'public',
      userinfo_signed_response_alg: 'none',
    });
  });

  it('refuses a body field of the wrong JSON type, naming it', () => {
    expect(refused(() => decodeClientBody({ client_name: 5 }))).toMatchObject({
      status: 400,
      error_description: expect.stringContaining('client_name'),
    });
    expect(refused(() => decodeClientBody([]))).toMatchObject({ status: 400 });
  });

  it.each([
    [{ client_secret: 'short' }, 'invalid_client_metadata', 'at least 6 characters'],
    [{ token_endpoint_auth_method: 'private_key_jwt' }, 'invalid_client_metadata', 'either jwks or jwks_uri'],
    [{ jwks_uri: 'https://a/jwks', jwks: { keys: [] } }, 'invalid_client_metadata', 'can not both be set'],
    [{ redirect_uris: ['https://app/cb#frag'] }, 'invalid_redirect_uri', 'must not contain fragments'],
    [{ redirect_uris: ['not a url'] }, 'invalid_redirect_uri', 'Unable to parse redirect URL'],
    [{ subject_type: 'pairwise' }, 'invalid_client_metadata', 'Subject type pairwise is not supported'],
    [{ redirect_uris: ['https://app/cb'], post_logout_redirect_uris: ['https://other/bye'] }, 'invalid_client_metadata', 'must match the domain'],
    [{ access_token_strategy: 'magic' }, 'invalid_client_metadata', 'invalid access token strategy'],
    [{ allowed_cors_origins: ['https://app/path'] }, 'invalid_client_metadata', 'must not contain a path'],
  ])('refuses %j as Hydra does', (body, error, text) => {
    const answer = refused(() => validateClient({ client_id: 'a', ...body }, opts));
    expect(answer.status).toBe(400);
    expect(answer.error).toBe(error);
    expect(answer.error_description).toContain(text);
  });

  it('answers every field, and the secret only when given', () => {
    const stored = { ...validateClient({ client_id: 'a', client_secret: 'secret-1' }, opts), created_at: 't', updated_at: 't' };
    expect(clientView(stored)).not.toHaveProperty('client_secret');
    expect(clientView(stored, 'secret-1')).toMatchObject({ client_secret: 'secret-1' });
    expect(clientView(stored)).toMatchObject({ redirect_uris: [], grant_types: [], metadata: {}, skip_consent: false, owner: '' });
  });
});
