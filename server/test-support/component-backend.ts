import { Configuration, OAuth2Api } from '@ory/client';
import type { InjectOptions } from 'fastify';
import { buildApp } from '../app';
import { callerFor, startTestStack, testDeps } from './bff';
import { registerUser } from './users';

/**
 * The console's BFF over a real local stack for the client's component tests, run as a child process (the
 * component tests run in a DOM environment where the stack cannot): a signed-in user with a project, and every
 * HTTP request the test's page makes, received over IPC and answered by the real BFF (`app.inject`) as that user.
 */
async function main() {
  const stack = await startTestStack();
  const deps = testDeps(stack.url);
  const user = await registerUser(stack.url, { name: 'Component' });
  const project = await callerFor(deps, user.cookie).projects.create({ name: 'Component', environment: 'dev' });
  const app = await buildApp(deps);
  const base = `${stack.url}/project-api/${project.slug}`;
  const hydra = new OAuth2Api(new Configuration({ basePath: base, baseOptions: { headers: { Cookie: user.cookie } } }));

  /** A consent of `subject` to a new client named `clientName`: an authorization-code flow accepted through Hydra's admin API. */
  const seedConsent = async (subject: string, clientName: string) => {
    const redirect = 'http://127.0.0.1:1/callback';
    const { data: client } = await hydra.createOAuth2Client({ oAuth2Client: { client_name: clientName, redirect_uris: [redirect], scope: 'openid email' } });
    const jar = new Map<string, string>();
    const go = async (url: string) => {
      const res = await fetch(url, { redirect: 'manual', headers: { cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; ') } });
      for (const line of res.headers.getSetCookie()) {
        const [pair = ''] = line.split(';');
        jar.set(pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1));
      }
      return new URL(res.headers.get('location') ?? '', url);
    };
    const auth = new URL(`${base}/oauth2/auth`);
    for (const [k, v] of Object.entries({ client_id: client.client_id!, response_type: 'code', redirect_uri: redirect, scope: 'openid email', state: 'seeded-state' })) {
      auth.searchParams.set(k, v);
    }
    const loginChallenge = (await go(auth.href)).searchParams.get('login_challenge')!;
    const { data: login } = await hydra.acceptOAuth2LoginRequest({ loginChallenge, acceptOAuth2LoginRequest: { subject } });
    const consentChallenge = (await go(login.redirect_to)).searchParams.get('consent_challenge')!;
    const { data: consent } = await hydra.acceptOAuth2ConsentRequest({ consentChallenge, acceptOAuth2ConsentRequest: { grant_scope: ['openid', 'email'], remember: true } });
    await go(consent.redirect_to);
    return client.client_id!;
  };
  const close = async () => {
    await app.close();
    await stack.close();
    process.exit(0);
  };
  process.on('disconnect', () => void close());
  process.on('message', (raw) => {
    const message = raw as {
      id: number;
      method: string;
      url: string;
      headers: Record<string, string>;
      body?: string;
      seedConsent?: { subject: string; clientName: string };
      clientCredentials?: { clientId: string; secret: string };
    };
    void (async () => {
      try {
        if (message.seedConsent) {
          const clientId = await seedConsent(message.seedConsent.subject, message.seedConsent.clientName);
          process.send?.({ id: message.id, status: 200, headers: {}, body: clientId });
          return;
        }
        if (message.clientCredentials) {
          // A client-credentials token request at the project's token endpoint: its status says whether the secret works.
          const { clientId, secret } = message.clientCredentials;
          const res = await fetch(`${base}/oauth2/token`, {
            method: 'POST',
            headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Basic ${Buffer.from(`${encodeURIComponent(clientId)}:${encodeURIComponent(secret)}`).toString('base64')}` },
            body: 'grant_type=client_credentials',
          });
          process.send?.({ id: message.id, status: res.status, headers: {}, body: await res.text() });
          return;
        }
        const res = await app.inject({
          method: message.method as InjectOptions['method'],
          url: message.url,
          headers: { ...message.headers, cookie: user.cookie },
          ...(message.body !== undefined ? { payload: message.body } : {}),
        });
        process.send?.({ id: message.id, status: res.statusCode, headers: { 'content-type': String(res.headers['content-type'] ?? '') }, body: res.body });
      } catch (err) {
        process.send?.({ id: message.id, status: 599, headers: {}, body: String(err) });
      }
    })();
  });
  process.send?.({ ready: true, projectId: project.id });
}

void main();
