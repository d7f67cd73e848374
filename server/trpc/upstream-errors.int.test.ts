import { randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app';
import { createLogger } from '../logger';
import { callerFor, rejection, startTestStack, testDeps, type TestStack } from '../test-support/bff';
import { startRecordingServer, type RecordingServer } from '../test-support/recording-server';
import { registerUser } from '../test-support/users';
import { GENERIC_UPSTREAM_MESSAGE, UNEXPECTED_SHAPE_REASON } from './errors';

/** Everything the BFF logs, at its most talkative level. */
const written: string[] = [];
const logger = createLogger(
  'trace',
  {},
  new Writable({
    write(chunk, _encoding, done) {
      written.push(String(chunk));
      done();
    },
  }),
);

const HASH = '$2a$12$a-password-hash-that-must-never-be-logged';
let stack: TestStack;
let dataPlane: RecordingServer;
let cookie: string;

beforeAll(async () => {
  stack = await startTestStack();
  // A project's data plane that answers an identity in a shape no identity has (its id a number).
  dataPlane = await startRecordingServer(() => ({
    status: 200,
    body: { id: 42, schema_id: 'default', traits: { email: 'a@example.com' }, credentials: { password: { config: { hashed_password: HASH } } } },
  }));
  cookie = (await registerUser(stack.url, {})).cookie;
});

afterAll(async () => {
  await dataPlane?.close();
  await stack?.close();
});

describe('an upstream answer that fails the procedure’s output schema', () => {
  it('answers BAD_GATEWAY and logs it once, with neither the cookie nor what was answered', async () => {
    const deps = testDeps(stack.url, { projectApiUrl: `${dataPlane.url}/project-api/{slug}` }, { logger });
    const caller = callerFor(deps, cookie);
    const project = await caller.projects.create({ name: 'Shapes', environment: 'dev' });
    written.length = 0;

    const error = await rejection(caller.identities.get({ projectId: project.id, identityId: randomUUID() }));
    expect(error.code).toBe('BAD_GATEWAY');
    expect(error.message).toBe(GENERIC_UPSTREAM_MESSAGE);
    expect(dataPlane.requests.at(-1)?.path).toMatch(new RegExp(`^/project-api/${project.slug}/admin/identities/`));

    const failures = written.map((line) => JSON.parse(line) as Record<string, unknown>).filter((line) => line.level === 50);
    expect(failures).toEqual([expect.objectContaining({ path: 'identities.get', kind: 'invalid_response', msg: `upstream failure: ${UNEXPECTED_SHAPE_REASON}` })]);
    expect(failures[0]!.detail).toContain('id:');
    const everything = written.join('\n');
    for (const value of cookie.split('; ').map((c) => c.split('=').slice(1).join('='))) expect(everything).not.toContain(value);
    expect(everything).not.toContain(HASH);
  });
});

describe('an upstream refusal with details', () => {
  it('reaches the browser in the tRPC error’s data.details, with its reason', async () => {
    const details = { fields: { name: ['must be at most 32 characters'] } };
    const controlPlane = await startRecordingServer(() => ({
      status: 400,
      body: { error: { code: 400, status: 'Bad Request', reason: 'Invalid request body: name is too long', message: 'm', details } },
    }));
    const app = await buildApp(testDeps(stack.url, { backofficeUrl: controlPlane.url }));
    try {
      const res = await app.inject({ method: 'GET', url: '/api/trpc/projects.list', headers: { cookie, 'x-console-request': '1' } });
      expect(res.statusCode).toBe(400);
      expect(res.json().error.data).toMatchObject({ code: 'BAD_REQUEST', reason: 'Invalid request body: name is too long', details });
    } finally {
      await app.close();
      await controlPlane.close();
    }
  });
});
