import { describe, expect, it } from 'vitest';
import { INVALIDATES, invalidatedKeys, pathOfKey } from './invalidation';

describe('mutation → invalidated lists', () => {
  it('reads a tRPC mutation key as a procedure path', () => {
    expect(pathOfKey([['projects', 'create']])).toBe('projects.create');
    expect(pathOfKey(['not-trpc'])).toBeUndefined();
    expect(pathOfKey(undefined)).toBeUndefined();
  });

  it('answers the query-key prefixes of the lists a mutation changes', () => {
    expect(invalidatedKeys([['projects', 'delete']])).toEqual([[['projects', 'list']], [['projects', 'getActive']], [['workspaces', 'listProjects']]]);
    expect(invalidatedKeys([['workspaces', 'update']])).toEqual([[['workspaces', 'list']]]);
  });

  it('invalidates nothing for a mutation that is not in the map', () => {
    expect(invalidatedKeys([['auth', 'somethingElse']])).toEqual([]);
  });

  it('lists every project write as changing the project lists', () => {
    for (const path of ['projects.create', 'projects.update', 'projects.setEnvironment', 'projects.delete'] as const) {
      expect(INVALIDATES[path]).toContain('projects.list');
    }
  });

  it('refreshes identity and session lists after their writes, which pages no longer do by hand', () => {
    expect(invalidatedKeys([['identities', 'update']])).toEqual([[['identities', 'list']]]);
    expect(invalidatedKeys([['identities', 'import']])).toEqual([[['identities', 'list']], [['projects', 'progress']]]);
    expect(invalidatedKeys([['identities', 'deleteCredential']])).toEqual([[['identities', 'get']]]);
    expect(INVALIDATES['identities.delete']).not.toContain('identities.get');
    expect(INVALIDATES['oauth2Clients.create']).toContain('oauth2Clients.list');
    expect(INVALIDATES['oauth2Clients.set']).toContain('oauth2Clients.list');
    expect(INVALIDATES['oauth2Clients.delete']).toContain('oauth2Clients.list');
    // Spec §7: a patch does not refresh the client list.
    expect(INVALIDATES['oauth2Clients.patch']).not.toContain('oauth2Clients.list');
    // The client dialog reads a client from the list, so its saved lifespans must reach the list.
    expect(INVALIDATES['oauth2Clients.setLifespans']).toContain('oauth2Clients.list');
    expect(INVALIDATES['oauth2Sessions.revokeConsent']).toEqual(['oauth2Sessions.listConsent']);
    for (const path of ['oauth2Keys.create', 'oauth2Keys.deleteKey'] as const) expect(INVALIDATES[path]).toContain('oauth2Keys.get');
    for (const path of ['oauth2TrustedIssuers.trust', 'oauth2TrustedIssuers.delete'] as const) expect(INVALIDATES[path]).toContain('oauth2TrustedIssuers.list');
    for (const path of ['sessions.revoke', 'sessions.revokeAll', 'sessions.extend'] as const) expect(INVALIDATES[path]).toEqual(['sessions.list', 'sessions.get']);
  });
});
