import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { TRPCError } from '@trpc/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callerFor, startTestStack, testDeps, type TestStack } from '../test-support/bff';
import { registerUser } from '../test-support/users';

let stack: TestStack;
let cookie: string;
let elsewhere: Server;
let redirector: Server;
let elsewhereUrl: string;
let redirectorUrl: string;
const seenElsewhere: IncomingHttpHeaders[] = [];
let status = 302;

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function stop(server: Server | undefined): Promise<void> {
  if (!server) return;
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
}

beforeAll(async () => {
  stack = await startTestStack();
  cookie = (await registerUser(stack.url, {})).cookie;
  elsewhere = createServer((req, res) => {
    seenElsewhere.push(req.headers);
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('[]');
  });
  elsewhereUrl = await listen(elsewhere);
  /** An upstream that sends every call to another origin. */
  redirector = createServer((req, res) => {
    res.writeHead(status, { location: `${elsewhereUrl}${req.url}` });
    res.end();
  });
  redirectorUrl = await listen(redirector);
});

afterAll(async () => {
  await Promise.all([stop(elsewhere), stop(redirector)]);
  await stack?.close();
});

async function code(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => new Error('expected a failure'),
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(TRPCError);
  return (error as TRPCError).code;
}

describe('an upstream answering a redirect to another origin', () => {
  it.each([301, 302, 303, 307, 308])('backoffice %i: BAD_GATEWAY, and the session cookie never follows the Location', async (answer) => {
    status = answer;
    seenElsewhere.length = 0;
    const deps = testDeps(stack.url, { backofficeUrl: redirectorUrl });
    const caller = callerFor(deps, cookie);
    expect(await code(caller.projects.list())).toBe('BAD_GATEWAY');
    expect(await code(caller.workspaces.create({ name: 'x' }))).toBe('BAD_GATEWAY');
    expect(seenElsewhere).toEqual([]);
  });

  it.each([302, 307])('identity provider %i on whoami: BAD_GATEWAY, cookie kept home', async (answer) => {
    status = answer;
    seenElsewhere.length = 0;
    const deps = testDeps(stack.url, { orySdkUrl: redirectorUrl });
    expect(await code(callerFor(deps, cookie).auth.session())).toBe('BAD_GATEWAY');
    expect(seenElsewhere).toEqual([]);
  });
});
