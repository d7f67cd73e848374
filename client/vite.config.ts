import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

/** Budget for the JavaScript a first visit downloads (entry chunk and its static imports). */
const INITIAL_JS_BUDGET_GZIP_BYTES = 150 * 1024;

interface ChunkLike {
  type: 'chunk';
  code: string;
  isEntry: boolean;
  imports: string[];
}

/** Prints the initial JS size after a build, and fails the build when it exceeds the budget. */
function initialJsBudget(budget: number = INITIAL_JS_BUDGET_GZIP_BYTES): Plugin {
  let summary = '';
  return {
    name: 'console:initial-js-budget',
    apply: 'build',
    generateBundle(_options, bundle) {
      const chunks = new Map<string, ChunkLike>();
      for (const [file, output] of Object.entries(bundle)) {
        if (output.type === 'chunk') chunks.set(file, output as unknown as ChunkLike);
      }
      const initial = new Set<string>();
      const visit = (file: string) => {
        if (initial.has(file)) return;
        initial.add(file);
        chunks.get(file)?.imports.forEach(visit);
      };
      for (const [file, chunk] of chunks) if (chunk.isEntry) visit(file);
      let gzip = 0;
      for (const file of initial) gzip += gzipSync(chunks.get(file)?.code ?? '').length;
      const kb = (gzip / 1024).toFixed(1);
      const line = `initial JS: ${kb} KB gzipped in ${initial.size} chunks (budget ${budget / 1024} KB); ${chunks.size - initial.size} lazy chunks`;
      if (gzip > budget) this.error(line);
      summary = line;
    },
    closeBundle() {
      if (summary) console.log(summary);
    },
  };
}

const root = fileURLToPath(new URL('.', import.meta.url));
/**
 * `vite` dev server: /api and /.ory go to the console server, keeping the browser's Host so flow
 * actions and cookies stay on the dev origin. Start that server with PUBLIC_URL=http://localhost:5173
 * so its Origin and return_to checks accept the dev origin.
 */
const upstream = process.env.CONSOLE_DEV_UPSTREAM ?? 'http://localhost:3000';

/**
 * Vendor code goes into a few long-lived chunks; every page is its own chunk through the
 * React.lazy imports of the route registry, so a route only loads what it renders.
 */
const vendorGroups = [
  { name: 'react', test: /node_modules[\\/](react|react-dom|scheduler)[\\/]/, priority: 30 },
  { name: 'data', test: /node_modules[\\/](@tanstack|@trpc)[\\/]/, priority: 20 },
  { name: 'zod', test: /node_modules[\\/]zod[\\/]/, priority: 15 },
  { name: 'ui', test: /node_modules[\\/](wouter|regexparam|react-hot-toast|goober)[\\/]/, priority: 10 },
];

export default defineConfig({
  root,
  plugins: [react(), initialJsBudget()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    reportCompressedSize: true,
    // Raw (minified) size per chunk; the gzip budget of the initial load is checked by initialJsBudget.
    chunkSizeWarningLimit: 250,
    rolldownOptions: {
      output: {
        codeSplitting: { groups: vendorGroups },
      },
    },
  },
  server: {
    proxy: {
      '/api': { target: upstream, changeOrigin: false },
      '/.ory': { target: upstream, changeOrigin: false },
    },
  },
});
