import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlib, gzip, gzipSync } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { ROUTE_LIST } from './src/routes';

/** Budget for the JavaScript a first visit downloads (entry chunk and its static imports). */
const INITIAL_JS_BUDGET_GZIP_BYTES = 150 * 1024;

interface ChunkLike {
  type: 'chunk';
  code: string;
  isEntry: boolean;
  imports: string[];
  modules: Record<string, { renderedLength: number }>;
}

/** What a module of the bundle belongs to: its npm package, or its folder of the client's sources. */
function ownerOf(id: string): string {
  const pkg = /node_modules[\\/]((?:@[^\\/]+[\\/])?[^\\/]+)/.exec(id);
  if (pkg?.[1]) return pkg[1].replace('\\', '/');
  const local = /(client[\\/]src(?:[\\/][^\\/]+)?|shared(?:[\\/][^\\/]+)?)[\\/][^\\/]+$/.exec(id);
  return local?.[1]?.replace(/\\/g, '/') ?? id;
}

/**
 * The initial JS by owner (package or source folder): each chunk's gzip size shared out over its
 * modules by their minified length.
 */
function breakdown(chunks: ChunkLike[]): string {
  const owners = new Map<string, number>();
  for (const chunk of chunks) {
    const gzip = gzipSync(chunk.code).length;
    const modules = Object.entries(chunk.modules);
    const total = modules.reduce((sum, [, m]) => sum + m.renderedLength, 0) || 1;
    for (const [id, m] of modules) owners.set(ownerOf(id), (owners.get(ownerOf(id)) ?? 0) + (gzip * m.renderedLength) / total);
  }
  return [...owners.entries()]
    .sort((a, b) => b[1] - a[1])
    .filter(([, bytes]) => bytes >= 512)
    .map(([owner, bytes]) => `  ${(bytes / 1024).toFixed(1).padStart(6)} KB  ${owner}`)
    .join('\n');
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
      const initial = initialChunks(chunks);
      let gzip = 0;
      for (const file of initial) gzip += gzipSync(chunks.get(file)?.code ?? '').length;
      const kb = (gzip / 1024).toFixed(1);
      const line = `initial JS: ${kb} KB gzipped in ${initial.size} chunks (budget ${budget / 1024} KB); ${chunks.size - initial.size} lazy chunks`;
      if (gzip > budget) this.error(line);
      const parts = [...initial].flatMap((file) => (chunks.get(file) ? [chunks.get(file)!] : []));
      summary = `${line}\ninitial JS by package or source folder (gzip, ≥ 0.5 KB):\n${breakdown(parts)}`;
    },
    closeBundle() {
      if (summary) console.log(summary);
    },
  };
}

/** The chunks a first visit loads anyway (the entry and its static imports). */
function initialChunks(chunks: Map<string, ChunkLike>): Set<string> {
  const initial = new Set<string>();
  const visit = (file: string) => {
    if (initial.has(file)) return;
    initial.add(file);
    chunks.get(file)?.imports.forEach(visit);
  };
  for (const [file, chunk] of chunks) if (chunk.isEntry) visit(file);
  return initial;
}

/** Where the preload list of each route is written; the server reads it (server/static-client.ts). */
export const ROUTE_PRELOADS_FILE = 'route-preloads.json';

/**
 * Writes, for every route, the code its page needs beyond the initial chunks (the page's chunk and
 * what it imports), so the server names them in the HTML of that route (modulepreload) and the
 * browser fetches them beside the entry instead of after it has run.
 */
function routePreloads(): Plugin {
  return {
    name: 'console:route-preloads',
    apply: 'build',
    async generateBundle(_options, bundle) {
      const registry = await readFile(join(root, 'src/page-registry.ts'), 'utf8');
      const modules = new Map<string, string>();
      for (const m of registry.matchAll(/(\w+): lazyPage\(\(\) => import\('\.\/([^']+)'\)\)/g)) modules.set(m[1]!, join(root, 'src', `${m[2]}.tsx`));
      const lazyPages = registry.match(/lazyPage\(/g)?.length ?? 0;
      if (modules.size + 1 < lazyPages) this.error(`route preloads: read ${modules.size} of ${lazyPages - 1} pages in page-registry.ts`);
      const chunks = new Map<string, ChunkLike & { facadeModuleId?: string | null }>();
      for (const [file, output] of Object.entries(bundle)) if (output.type === 'chunk') chunks.set(file, output as unknown as ChunkLike & { facadeModuleId?: string | null });
      const initial = initialChunks(chunks);
      const byModule = new Map<string, string>();
      for (const [file, chunk] of chunks) if (chunk.facadeModuleId) byModule.set(chunk.facadeModuleId, file);
      const routes = ROUTE_LIST.flatMap((route) => {
        const module = route.available ? modules.get(route.page) : undefined;
        const file = module ? byModule.get(module) : undefined;
        if (!file) return [];
        const files: string[] = [];
        const visit = (f: string) => {
          if (initial.has(f) || files.includes(f)) return;
          files.push(f);
          chunks.get(f)?.imports.forEach(visit);
        };
        visit(file);
        return [{ id: route.id, pattern: route.pattern, requiresAuth: route.requiresAuth, files: files.map((f) => `/${f}`) }];
      });
      this.emitFile({ type: 'asset', fileName: ROUTE_PRELOADS_FILE, source: JSON.stringify(routes) });
    },
  };
}

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);
/** Text files worth compressing; smaller ones fit in one packet either way. */
const COMPRESSIBLE = /\.(js|css|html|svg|json|txt|map)$/;
const MIN_COMPRESS_BYTES = 512;

/**
 * Writes a brotli (.br) and a gzip (.gz) copy beside every text file of the build, once, at the
 * highest levels: the server sends them as they are (@fastify/static preCompressed), so no request
 * pays for compression and every client that accepts either encoding gets the smaller file.
 */
function precompress(): Plugin {
  return {
    name: 'console:precompress',
    apply: 'build',
    async writeBundle(options, bundle) {
      const outDir = options.dir ?? 'dist';
      const files = Object.keys(bundle).filter((file) => COMPRESSIBLE.test(file));
      await Promise.all(
        files.map(async (file) => {
          const path = join(outDir, file);
          const raw = await readFile(path);
          if (raw.length < MIN_COMPRESS_BYTES) return;
          const [br, gz] = await Promise.all([
            brotli(raw, { params: { [zlib.BROTLI_PARAM_QUALITY]: zlib.BROTLI_MAX_QUALITY, [zlib.BROTLI_PARAM_SIZE_HINT]: raw.length } }),
            gzipAsync(raw, { level: zlib.Z_BEST_COMPRESSION }),
          ]);
          await Promise.all([writeFile(`${path}.br`, br), writeFile(`${path}.gz`, gz)]);
        }),
      );
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

/**
 * The server's first-paint renderer, built by `vite build --ssr src/entry-server.tsx` (scripts/ensure-client-build.mjs,
 * `npm run build:client`) into client/dist-ssr, where server/static-client.ts loads it.
 */
const SSR_OUT_DIR = 'dist-ssr';
const SSR_ENTRY = 'src/entry-server.tsx';

export default defineConfig(({ isSsrBuild }) =>
  isSsrBuild
    ? {
        // The first-paint renderer (entry-server.tsx), for Node, with its dependencies bundled in and React's
        // production build: every page opened by URL is rendered with it, and React's development build took
        // twice the time.
        root,
        plugins: [react()],
        publicDir: false,
        define: { 'process.env.NODE_ENV': JSON.stringify('production') },
        ssr: { noExternal: true },
        build: { outDir: SSR_OUT_DIR, emptyOutDir: true, ssr: SSR_ENTRY, minify: false, reportCompressedSize: false },
      }
    : {
        root,
        plugins: [react(), initialJsBudget(), routePreloads(), precompress()],
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
      },
);
