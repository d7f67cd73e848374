/**
 * The server's part of a page opened by URL: the time until the console has sent a signed-in page's whole
 * HTML (its first answers asked of the local stack, the page painted), with no browser, for the routes of
 * bench/page-load.ts, before and after in one run. Each side is its own checkout's console with its own
 * checkout's local stack (bench/page-html-server.ts), so a change to either is measured; each has its own
 * visitor with the same data. Requests take turns between the two, one at a time, so a busy moment of the
 * machine weighs on both alike. BENCH_BEFORE_REF: the "before" commit (default: the parent of the commit
 * that added this file); BENCH_HTML_ROUNDS (default 30): loads per route and side; the median is reported.
 *
 *   npm run bench:html
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { beforeRef, buildBefore, freePort, ROOT, run } from './before-checkout';

const ROUNDS = Number(process.env.BENCH_HTML_ROUNDS ?? 30);
const PAINTED_ROOT = '<div id="root" inert>';

interface Side {
  child: ChildProcess;
  url: string;
  cookie: string;
  project: string;
  workspace: string;
}

async function startSide(root: string, dist: string): Promise<Side> {
  const child = spawn(join(ROOT, 'node_modules/.bin/tsx'), ['bench/page-html-server.ts', root, String(await freePort()), dist], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
  // The stack's log lines share its standard output: the side is the line that names its URL.
  const side = await new Promise<Omit<Side, 'child'>>((resolve, reject) => {
    createInterface({ input: child.stdout! }).on('line', (line) => {
      const parsed = (() => {
        try {
          return JSON.parse(line) as Partial<Omit<Side, 'child'>>;
        } catch {
          return undefined;
        }
      })();
      if (parsed?.url && parsed.cookie) resolve(parsed as Omit<Side, 'child'>);
    });
    child.once('exit', (code) => reject(new Error(`the console of ${root} exited with ${code}`)));
  });
  return { child, ...side };
}

/** The routes of bench/page-load.ts, for a side's own project and workspace. */
const routesOf = (side: Side): string[] => {
  const P = `/projects/${side.project}`;
  const W = `/workspaces/${side.workspace}`;
  return ['/projects', '/workspaces', `${P}/get-started`, `${P}/identities`, `${P}/sessions`, `${P}/identity-schema`, `${P}/email-configuration`, `${P}/email-templates`, `${P}/email-delivery`, `${P}/settings`, `${P}/settings/collaborators`, `${P}/settings/billing`, `${P}/settings/advanced`, W, `${W}/settings/members`, `${W}/settings/billing`];
};

/** One page by URL: the time until its last byte, and whether the server painted it. */
async function load(side: Side, path: string): Promise<{ ms: number; painted: boolean }> {
  const started = performance.now();
  const res = await fetch(side.url + path, { headers: { accept: 'text/html', cookie: side.cookie } });
  const html = await res.text();
  if (res.status !== 200) throw new Error(`${side.url}${path} answered ${res.status}`);
  return { ms: performance.now() - started, painted: html.includes(PAINTED_ROOT) };
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

async function main(): Promise<void> {
  run('node', ['scripts/ensure-client-build.mjs'], ROOT);
  const ref = beforeRef('bench/page-html.ts');
  if (!ref) throw new Error('no "before" commit: set BENCH_BEFORE_REF');
  const before = buildBefore(ref);
  const sides = { before: await startSide(before.root, before.dist), after: await startSide(ROOT, join(ROOT, 'client/dist')) };
  try {
    const routes = { before: routesOf(sides.before), after: routesOf(sides.after) };
    const names = routesOf({ project: ':project', workspace: ':workspace' } as Side);
    // Warm both (compiled code, connections, caches a visitor's first request fills).
    for (let i = 0; i < 3; i++) for (const variant of ['before', 'after'] as const) for (const path of routes[variant]) await load(sides[variant], path);
    const samples = { before: names.map(() => [] as number[]), after: names.map(() => [] as number[]) };
    const painted = { before: 0, after: 0 };
    for (let round = 0; round < ROUNDS; round++) {
      for (let r = 0; r < names.length; r++) {
        for (const variant of round % 2 ? (['after', 'before'] as const) : (['before', 'after'] as const)) {
          const result = await load(sides[variant], routes[variant][r]!);
          samples[variant][r]!.push(result.ms);
          if (result.painted) painted[variant]++;
        }
      }
    }
    console.log(`\nA signed-in page's whole HTML from the console, no browser (before ${ref.slice(0, 12)}, after: this tree; ${ROUNDS} loads per route and side, median)`);
    const perRoute = { before: [] as number[], after: [] as number[] };
    names.forEach((name, r) => {
      const b = median(samples.before[r]!);
      const a = median(samples.after[r]!);
      perRoute.before.push(b);
      perRoute.after.push(a);
      console.log(`${name.padEnd(44)} | before ${b.toFixed(1).padStart(6)} ms | after ${a.toFixed(1).padStart(6)} ms | ×${(a / b).toFixed(2)}`);
    });
    const total = ROUNDS * names.length;
    console.log(`median of the routes: before ${median(perRoute.before).toFixed(1)} ms, after ${median(perRoute.after).toFixed(1)} ms (×${(median(perRoute.after) / median(perRoute.before)).toFixed(2)}); painted: before ${painted.before} of ${total}, after ${painted.after} of ${total}`);
  } finally {
    sides.before.child.kill('SIGTERM');
    sides.after.child.kill('SIGTERM');
  }
}

await main();
