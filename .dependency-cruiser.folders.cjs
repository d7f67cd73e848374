/**
 * The folder rule of docs/design.md §3.1 for the local stack: its folders (kernel, db, identity, project, …)
 * depend on each other in no circle. It is about the program, so tests and localstack/test-support/ are left
 * out: a test sits on top of the folder it tests and may use any folder's helpers, and nothing imports it.
 * Run by `npm run lint:deps` after .dependency-cruiser.cjs.
 */
const base = require('./.dependency-cruiser.cjs');

/**
 * Folder cycles between domains that exist today, as the first step of each cycle (folder → folder it
 * imports); the kernel and db/ are in none. Every other step that closes a cycle fails the check: remove an
 * entry when its cycle is gone, never add one.
 */
const KNOWN_FOLDER_CYCLES = {
  'billing': ['project'],
  'courier': ['identity'],
  'identity': ['identity-schema', 'self-service'],
  'identity-schema': ['identity', 'self-service'],
  'project': ['billing', 'identity', 'identity-schema'],
  'self-service': ['courier', 'identity', 'identity-schema', 'session'],
  'session': ['billing', 'identity', 'self-service'],
};

const escape = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const folder = (name) => `^localstack/${escape(name)}$`;

const rule = (from, to) => ({
  name: 'localstack-folders-acyclic',
  comment: 'The folders of the local stack (kernel, identity, project, billing, …) do not depend on each other in a circle.',
  severity: 'error',
  scope: 'folder',
  from,
  to: { ...to, circular: true },
});
const known = Object.keys(KNOWN_FOLDER_CYCLES);

module.exports = {
  forbidden: [
    rule({ path: '^localstack/', pathNot: known.map(folder) }, { path: '^localstack/' }),
    ...known.map((name) => rule({ path: folder(name) }, { path: '^localstack/', pathNot: KNOWN_FOLDER_CYCLES[name].map(folder) })),
  ],
  options: {
    ...base.options,
    exclude: { path: [...base.options.exclude.path, '\\.test\\.ts$', '^localstack/test-support/'] },
  },
};
