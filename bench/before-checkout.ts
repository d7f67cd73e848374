/**
 * The "before" side of the benchmarks that compare two commits in one run (bench/page-load.ts,
 * bench/page-html.ts): a cached temporary checkout of the commit, its client built as its own build does.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, symlinkSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const ROOT = new URL('..', import.meta.url).pathname;

/** What a checkout holds: the client, and the console's server with the local stack it embeds. */
const CHECKOUT_PATHS = ['client', 'shared', 'server', 'localstack', 'package.json', 'tsconfig.json'];

export function git(...args: string[]): string {
  return execFileSync('git', args, { cwd: ROOT, encoding: 'utf8' }).trim();
}

export function run(command: string, args: string[], cwd: string): void {
  const result = spawnSync(command, args, { cwd, stdio: ['ignore', 'ignore', 'inherit'] });
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed in ${cwd}`);
}

/** The commit BENCH_BEFORE_REF names, else the parent of the commit that added `benchFile` (the state it was written against). */
export function beforeRef(benchFile: string): string | undefined {
  if (process.env.BENCH_BEFORE_REF) return git('rev-parse', process.env.BENCH_BEFORE_REF);
  try {
    const added = git('log', '--diff-filter=A', '--format=%H', '--', benchFile).split('\n').filter(Boolean).at(-1);
    return added ? git('rev-parse', `${added}^`) : git('rev-parse', 'HEAD');
  } catch {
    return undefined;
  }
}

/**
 * Builds the client of `ref` into a cached temporary checkout of it (its server and local stack beside it);
 * answers the checkout and its client's dist directory.
 */
export function buildBefore(ref: string): { root: string; dist: string } {
  const dir = join(tmpdir(), `console-bench-before-${ref.slice(0, 12)}`);
  const dist = join(dir, 'client/dist');
  const complete = existsSync(join(dist, 'index.html')) && CHECKOUT_PATHS.every((path) => existsSync(join(dir, path)));
  if (complete) return { root: dir, dist };
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const archive = spawnSync('git', ['archive', '--format=tar', ref, ...CHECKOUT_PATHS], { cwd: ROOT, maxBuffer: 1 << 30 });
  if (archive.status !== 0) throw new Error(`git archive ${ref} failed`);
  spawnSync('tar', ['-x', '-C', dir], { input: archive.stdout });
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
  console.log(`building the "before" client (${ref.slice(0, 12)})…`);
  run(join(ROOT, 'node_modules/.bin/vite'), ['build', '--logLevel', 'error', '--config', 'client/vite.config.ts'], dir);
  // A client whose server paints its pages has its renderer built too (client/dist-ssr), as its build script does.
  if (existsSync(join(dir, 'client/src/entry-server.tsx'))) run(join(ROOT, 'node_modules/.bin/vite'), ['build', '--logLevel', 'error', '--config', 'client/vite.config.ts', '--ssr', 'src/entry-server.tsx'], dir);
  return { root: dir, dist };
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}
