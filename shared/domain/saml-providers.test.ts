import { describe, expect, it } from 'vitest';
import { samlAcsUrl, samlClaims, samlMetadataUrl } from './saml-providers';

describe('SAML providers', () => {
  it('names the metadata and ACS URLs under the project API', () => {
    expect(samlMetadataUrl('https://x.projects.oryapis.com/', 'corp')).toBe('https://x.projects.oryapis.com/self-service/methods/saml/metadata/corp');
    expect(samlAcsUrl('https://x.projects.oryapis.com', 'corp')).toBe('https://x.projects.oryapis.com/self-service/methods/saml/acs/corp');
  });

  it('reads claims from mapped attributes, then default names, then the name id', () => {
    expect(samlClaims({ mail: ['a@corp.example'], givenName: 'Ada', sn: 'Lovelace' }, 'ada')).toEqual({
      email: 'a@corp.example',
      given_name: 'Ada',
      family_name: 'Lovelace',
      name: 'Ada Lovelace',
    });
    expect(samlClaims({ corpMail: 'b@corp.example', mail: 'other@corp.example' }, 'x', { email: 'corpMail' })).toEqual({ email: 'b@corp.example' });
    expect(samlClaims({}, 'c@corp.example')).toEqual({ email: 'c@corp.example' });
    expect(samlClaims({}, 'opaque-id')).toEqual({});
  });
});
