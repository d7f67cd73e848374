// Bundles the server (BFF and embedded local stack) into dist/server/main.js (and the stack's thread,
// dist/server/embedded-stack-worker.js) for production images.
// Dependencies stay external: they are installed with `npm ci --omit=dev` beside the bundle.
import { cpSync } from 'node:fs';
import { build } from 'esbuild';

await build({
  // The embedded local stack runs in a worker thread of its own (server/embedded-stack.ts): its module is
  // a second bundle beside main.js.
  entryPoints: { main: 'server/main.ts', 'embedded-stack-worker': 'server/embedded-stack-worker.ts' },
  outdir: 'dist/server',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  sourcemap: true,
  logLevel: 'info',
});

// The local stack reads its drizzle-kit migrations beside the module that applies them: in the bundle,
// dist/server/migrations next to main.js.
cpSync('localstack/db/migrations', 'dist/server/migrations', { recursive: true });
