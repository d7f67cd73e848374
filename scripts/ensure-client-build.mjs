// Builds the client (client/dist) and the server's first-paint renderer (client/dist-ssr) when either is
// missing or older than any client or shared source file, so `npm start` and the e2e suite always serve
// what the sources say.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const builtIndex = join(root, 'client/dist/index.html');
const builtRenderer = join(root, 'client/dist-ssr/entry-server.js');

function newestMtime(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'dist' || entry.name === 'dist-ssr' || entry.name === 'node_modules' || entry.name.startsWith('.')) continue;
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(path) : statSync(path).mtimeMs);
  }
  return newest;
}

const sources = Math.max(newestMtime(join(root, 'client')), newestMtime(join(root, 'shared')));
const fresh = (file) => existsSync(file) && statSync(file).mtimeMs >= sources;
if (fresh(builtIndex) && fresh(builtRenderer)) process.exit(0);

console.log('Building the client (client/dist or client/dist-ssr is missing or out of date)…');
const vite = (...args) => spawnSync(join(root, 'node_modules/.bin/vite'), ['build', '--config', 'client/vite.config.ts', ...args], { cwd: root, stdio: 'inherit' }).status ?? 1;
const status = vite() || vite('--ssr', 'src/entry-server.tsx', '--logLevel', 'warn');
process.exit(status);
