// Builds the client when client/dist is missing or older than any client or shared source file,
// so `npm start` and the e2e suite always serve what the sources say.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const builtIndex = join(root, 'client/dist/index.html');

function newestMtime(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'dist' || entry.name === 'node_modules' || entry.name.startsWith('.')) continue;
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(path) : statSync(path).mtimeMs);
  }
  return newest;
}

const sources = Math.max(newestMtime(join(root, 'client')), newestMtime(join(root, 'shared')));
if (existsSync(builtIndex) && statSync(builtIndex).mtimeMs >= sources) process.exit(0);

console.log('Building the client (client/dist is missing or out of date)…');
const result = spawnSync(join(root, 'node_modules/.bin/vite'), ['build', '--config', 'client/vite.config.ts'], {
  cwd: root,
  stdio: 'inherit',
});
process.exit(result.status ?? 1);
