/**
 * The folder rule of docs/design.md §3.1 for the local stack: its folders (kernel, db, identity, project, …)
 * depend on each other in no circle. It is about the program, so tests and localstack/test-support/ are left
 * out: a test sits on top of the folder it tests and may use any folder's helpers, and nothing imports it.
 * Run by `npm run lint:deps` after .dependency-cruiser.cjs.
 */
const base = require('./.dependency-cruiser.cjs');

module.exports = {
  forbidden: [
    {
      name: 'localstack-folders-acyclic',
      comment: 'The folders of the local stack (kernel, identity, project, billing, …) do not depend on each other in a circle.',
      severity: 'error',
      scope: 'folder',
      from: { path: '^localstack/' },
      to: { path: '^localstack/', circular: true },
    },
  ],
  options: {
    ...base.options,
    exclude: { path: [...base.options.exclude.path, '\\.test\\.ts$', '^localstack/test-support/'] },
  },
};
