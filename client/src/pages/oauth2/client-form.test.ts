import { describe, expect, it } from 'vitest';
import { bodyOf, EMPTY_FORM, formOf } from './client-form';

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
});
