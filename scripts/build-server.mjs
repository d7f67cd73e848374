// Bundles the server (BFF and embedded local stack) into dist/server/main.js for production images.
// Dependencies stay external: they are installed with `npm ci --omit=dev` beside the bundle.
import { build } from 'esbuild';

await build({
  entryPoints: ['server/main.ts'],
  outfile: 'dist/server/main.js',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  sourcemap: true,
  logLevel: 'info',
});
