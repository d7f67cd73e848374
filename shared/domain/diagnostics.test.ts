import { describe, expect, it } from 'vitest';
import { diagnosticReport, redact } from './diagnostics';

const PROJECT = '6c0a6ad2-3b1f-4f4e-9d2a-1f3c2b4a5d6e';
const base = {
  userAgent: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0 Safari/537.36',
  consoleVersion: '1.2.3',
  project: { id: PROJECT, environment: 'stage' },
  now: new Date('2026-03-04T05:06:07.000Z'),
  failures: [{ procedure: 'identities.list', code: 'NOT_FOUND', status: 404, at: '2026-03-04T05:06:00.000Z' }],
};

describe('diagnosticReport', () => {
  it('names the browser, the version, the project and its environment, the time and the failed calls', () => {
    expect(diagnosticReport(base)).toBe(
      [
        'Console diagnostic report',
        'Time: 2026-03-04T05:06:07.000Z',
        'Console version: 1.2.3',
        `Browser: ${base.userAgent}`,
        `Project: ${PROJECT} (environment: stage)`,
        'Recent failed requests:',
        '  2026-03-04T05:06:00.000Z  identities.list  NOT_FOUND (404)',
      ].join('\n'),
    );
  });

  it('says when there is no project, no version and no failure', () => {
    const report = diagnosticReport({ ...base, project: null, consoleVersion: null, failures: [] });
    expect(report).toContain('Project: none selected');
    expect(report).toContain('Console version: unknown');
    expect(report).toMatch(/Recent failed requests:\n {2}none$/);
  });

  it('lets no address, token, key or cookie through, wherever it slipped in', () => {
    const secrets = [
      'jane.doe+console@example.co.uk',
      'ory_pat_4hX9sTq2LmZ0aB7cD1eF',
      'ory_st_Zk3nP8wQ2rT6yU1i',
      'ory_apikey_k7Q2w9E4r1T8',
      'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl',
      'ory_session_cooltenant=MTcwMDAwMDAwMHxzZWNyZXQ',
      'ory_kratos_session=MTY5OTk5OTk5OXxhYmNk',
      'csrf_token_806060ca=Zm9vYmFy',
    ];
    const report = diagnosticReport({
      ...base,
      userAgent: `${base.userAgent} (reporter ${secrets[0]}) Cookie: ${secrets[5]}; ${secrets[6]}`,
      consoleVersion: `1.2.3 ${secrets[1]}`,
      project: { id: PROJECT, environment: `prod Authorization: Bearer ${secrets[3]}` },
      failures: [
        { procedure: `sessions.get?token=${secrets[2]}`, code: 'UNAUTHORIZED', status: 401, at: base.failures[0]!.at },
        { procedure: `auth.session ${secrets[4]} ${secrets[7]}`, code: 'NETWORK', status: null, at: base.failures[0]!.at },
      ],
    });
    for (const secret of secrets) expect(report).not.toContain(secret);
    expect(report).not.toMatch(/@|ory_|eyJ|cookie|bearer/i);
    // What support needs stays.
    expect(report).toContain(PROJECT);
    expect(report).toContain('Console version: 1.2.3');
    expect(report).toContain('sessions.get');
    expect(report).toContain('UNAUTHORIZED (401)');
  });
});

describe('redact', () => {
  it('leaves ordinary text alone', () => {
    expect(redact(`projects.get NOT_FOUND (404) ${PROJECT} environment: dev`)).toBe(`projects.get NOT_FOUND (404) ${PROJECT} environment: dev`);
  });
  it('replaces an address inside a sentence', () => {
    expect(redact('contact ada@lovelace.dev now')).toBe('contact [redacted] now');
  });
});
