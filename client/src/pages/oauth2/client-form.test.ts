import { describe, expect, it } from 'vitest';
import { CLIENT_LIFESPAN_FIELDS } from '../../../../shared/schemas/oauth2';
import { bodyOf, EMPTY_FORM, formOf, keptLifespans, LIFESPAN_GROUPS, lifespansOf } from './client-form';

describe('the OAuth2 client form', () => {
  it('sends lists one entry a line and the scope as a list', () => {
    const result = bodyOf({ ...EMPTY_FORM, client_name: ' Shop ', redirect_uris: 'https://a/cb\n\nhttps://b/cb', scope: 'openid  email' });
    expect(result).toEqual({
      body: expect.objectContaining({ client_name: 'Shop', redirect_uris: ['https://a/cb', 'https://b/cb'], scope: ['openid', 'email'] }),
    });
  });

  it('says what to fix in metadata that is not a JSON object', () => {
    expect(bodyOf({ ...EMPTY_FORM, metadata: '{oops' })).toEqual({ error: 'Metadata is not valid JSON: check its quotes and commas.' });
    expect(bodyOf({ ...EMPTY_FORM, metadata: '[1]' })).toEqual({ error: 'Metadata must be a JSON object, such as {"team": "web"}.' });
  });

  it('reads a client back into the form it came from', () => {
    const form = formOf({ client_name: 'Shop', redirect_uris: ['https://a/cb'], grant_types: ['client_credentials'], scope: 'read', metadata: { team: 'web' } });
    expect(form).toMatchObject({ client_name: 'Shop', redirect_uris: 'https://a/cb', grant_types: ['client_credentials'], scope: 'read' });
    expect(JSON.parse(form.metadata)).toEqual({ team: 'web' });
  });

  it('offers every lifespan of a client once, in words, grouped by grant', () => {
    const shown = LIFESPAN_GROUPS.flatMap((g) => g.fields.map((f) => f.field));
    expect([...shown].sort()).toEqual([...CLIENT_LIFESPAN_FIELDS].sort());
    expect(LIFESPAN_GROUPS[0]?.fields[0]).toEqual({ field: 'authorization_code_grant_access_token_lifespan', label: 'Authorization code: access tokens' });
  });

  it("reads a client's lifespans, empty where the project's apply", () => {
    const form = lifespansOf({ client_credentials_grant_access_token_lifespan: '5m', refresh_token_grant_id_token_lifespan: null });
    expect(form.client_credentials_grant_access_token_lifespan).toBe('5m');
    expect(form.refresh_token_grant_id_token_lifespan).toBe('');
    expect(Object.keys(form)).toHaveLength(CLIENT_LIFESPAN_FIELDS.length);
    // Saving the client whole sends the lifespans it has, and none where the project's apply.
    expect(keptLifespans(form)).toEqual({ client_credentials_grant_access_token_lifespan: '5m' });
    expect(keptLifespans(null)).toEqual({});
  });
});
