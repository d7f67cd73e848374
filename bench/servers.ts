/**
 * Servers for the projects.list benchmark, each in its own process so they do not share an event loop:
 *   tsx bench/servers.ts stack            → the local stack (in-memory database)
 *   tsx bench/servers.ts bff <stackUrl>   → the BFF and a bare Fastify pass-through proxy, both to the stack
 * Each prints one JSON line with its URLs on stdout, then serves until killed.
 */
import { Agent, request } from 'node:http';
import Fastify from 'fastify';
import { buildApp } from '../server/app';
import { loadConfig } from '../server/config';
import { createDeps } from '../server/deps';
import { createLogger } from '../server/logger';
import { startLocalStack } from '../localstack/index';

const [mode, stackUrl] = process.argv.slice(2);

if (mode === 'stack') {
  const stack = await startLocalStack({
    port: 0,
    uiUrl: 'http://localhost:3000',
    passwordHash: { memoryCost: 1024, timeCost: 1, parallelism: 1 },
    logger: createLogger('warn'),
  });
  console.log(JSON.stringify({ stack: stack.url }));
} else if (mode === 'bff' && stackUrl) {
  const config = { ...loadConfig({ LOG_LEVEL: 'warn' }), backofficeUrl: stackUrl, orySdkUrl: stackUrl };
  const logger = createLogger(config.logLevel);
  const bff = await buildApp(createDeps(config, logger));
  const bffAddress = await bff.listen({ port: 0, host: '127.0.0.1' });

  // The floor: the least a Node HTTP hop can cost — receive, forward the cookie, relay the body.
  const floor = Fastify({ logger: false });
  const agent = new Agent({ keepAlive: true, maxSockets: 256 });
  floor.get('/projects', (req, reply) => {
    const upstream = request(`${stackUrl}/projects`, { agent, headers: { cookie: req.headers.cookie ?? '', accept: 'application/json' } }, (res) => {
      reply.code(res.statusCode ?? 502).header('content-type', 'application/json').send(res);
    });
    upstream.on('error', (error) => reply.code(502).send({ error: error.message }));
    upstream.end();
  });
  const floorAddress = await floor.listen({ port: 0, host: '127.0.0.1' });
  console.log(JSON.stringify({ bff: bffAddress, floor: floorAddress }));
} else {
  console.error('usage: tsx bench/servers.ts stack | bff <stackUrl>');
  process.exit(2);
}

// Exit cleanly when the benchmark is done, so `node --cpu-prof` can write its profile.
process.once('SIGTERM', () => process.exit(0));
