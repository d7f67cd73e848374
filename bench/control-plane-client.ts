/**
 * `npx tsx bench/control-plane-client.ts`: GET /projects through @ory/client (ProjectApi.listProjects) against
 * the same call through our own HTTP client, in one process against one local stack, alternating 2 s rounds
 * (16 calls in flight) so both see the same machine load. Prints calls/s and the SDK/own-client ratio.
 */
import { z } from 'zod';
import { projectMetadataSchema } from '../shared/schemas/project';
import { startTestStack } from '../server/test-support/stack';
import { registerUser } from '../server/test-support/users';
import { createBackofficeClient } from '../server/upstream/backoffice';

const stack = await startTestStack();
const user = await registerUser(stack.url, {});
for (let i = 0; i < 5; i++) await fetch(`${stack.url}/projects`, { method: 'POST', headers: { cookie: user.cookie, 'content-type': 'application/json' }, body: JSON.stringify({ name: `B${i}`, environment: 'dev' }) });
const bo = createBackofficeClient({ baseUrl: stack.url, timeoutMs: 30000 });
const list = z.array(projectMetadataSchema);
const c = { cookie: user.cookie };
const variants: Record<string, () => Promise<unknown>> = {
  sdk: () => bo.sdk.send(c, 'listProjects', list, (o) => bo.sdk.projects.listProjects(o)),
  http: () => bo.http.request({ method: 'GET', path: '/projects', cookie: user.cookie }, list),
};
async function run(fn: () => Promise<unknown>, ms: number) {
  let n = 0; const end = Date.now() + ms; const cpu0 = process.cpuUsage();
  await Promise.all(Array.from({ length: 16 }, async () => { while (Date.now() < end) { await fn(); n++; } }));
  const cpu = process.cpuUsage(cpu0); return { n, cpuMs: (cpu.user + cpu.system) / 1000 };
}
const totals: Record<string, { n: number; cpuMs: number }> = { sdk: { n: 0, cpuMs: 0 }, http: { n: 0, cpuMs: 0 } };
await run(variants.sdk!, 1500); await run(variants.http!, 1500);
for (let round = 0; round < 6; round++) for (const name of round % 2 ? ['sdk', 'http'] : ['http', 'sdk']) {
  const r = await run(variants[name]!, 2000); totals[name]!.n += r.n; totals[name]!.cpuMs += r.cpuMs;
}
for (const [name, t] of Object.entries(totals)) console.log(`${name}: ${t.n} calls, ${(t.n / 12).toFixed(0)} calls/s, ${(t.cpuMs / t.n).toFixed(3)} ms CPU per call (client and stack)`);
console.log(`@ory/client / own client throughput: ${((totals.sdk!.n / totals.http!.n) * 100).toFixed(1)}%`);
bo.http.close(); await stack.close(); process.exit(0);
