import { describe, expect, it } from 'vitest';
import { fillSecrets, redactedSecretPaths, redactSecrets, REDACTED_SECRET } from './config-export';

const config = {
  identity: {
    config: {
      courier: { smtp: { connection_uri: 'smtp://mailer:********@127.0.0.1:1/' } },
      selfservice: { methods: { oidc: { config: { providers: [{ id: 'github', client_id: 'abc', client_secret: 'gh-secret-1' }, { id: 'empty', client_secret: '' }] } } } },
    },
  },
  'a/b': { password: 'pw' },
};

describe('configuration export', () => {
  it('redacts secrets by key, keeps empty ones and everything else', () => {
    const redacted = redactSecrets(config);
    expect(JSON.stringify(redacted)).not.toContain('gh-secret-1');
    expect(redacted.identity.config.selfservice.methods.oidc.config.providers[0]).toEqual({ id: 'github', client_id: 'abc', client_secret: REDACTED_SECRET });
    expect(redacted.identity.config.selfservice.methods.oidc.config.providers[1]!.client_secret).toBe('');
    expect(config.identity.config.selfservice.methods.oidc.config.providers[0]!.client_secret).toBe('gh-secret-1');
  });

  it('names every redacted secret by its JSON pointer and fills each one back, a URI password encoded', () => {
    const redacted = redactSecrets(config);
    const paths = redactedSecretPaths(redacted);
    expect(paths).toEqual([
      '/identity/config/courier/smtp/connection_uri',
      '/identity/config/selfservice/methods/oidc/config/providers/0/client_secret',
      '/a~1b/password',
    ]);
    const { missing } = fillSecrets(redacted, { [paths[0]!]: 'p@ss' });
    expect(missing).toEqual(paths.slice(1));
    const { filled, missing: none } = fillSecrets(redacted, { [paths[0]!]: 'p@ss', [paths[1]!]: 'new-secret', [paths[2]!]: 'pw2' });
    expect(none).toEqual([]);
    expect(filled.identity.config.courier.smtp.connection_uri).toBe('smtp://mailer:p%40ss@127.0.0.1:1/');
    expect(filled.identity.config.selfservice.methods.oidc.config.providers[0]!.client_secret).toBe('new-secret');
    expect(redactedSecretPaths(filled)).toEqual([]);
  });
});
