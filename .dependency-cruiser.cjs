/**
 * The layering rules of docs/design.md, checked by `npm run lint:deps` (part of `npm test`).
 * Paths are relative to the repository root.
 */

/** Where the embedded local stack may be started or reached into from outside it. */
const LOCALSTACK_ENTRY_POINTS = [
  // Starts the embedded stack when no upstream is configured.
  '^server/main\\.ts$',
  // Test stacks, users and the wire recorder.
  '^server/test-support/',
  // Integration tests that start their own stack or set up state straight in its store (plans, invites, queued mail).
  '^server/log-secrets\\.int\\.test\\.ts$',
  '^server/request-timeout\\.int\\.test\\.ts$',
  '^server/routers/every-procedure\\.int\\.test\\.ts$',
  '^server/routers/team\\.int\\.test\\.ts$',
];

/**
 * Folder cycles inside server/localstack that exist today, as the first step of each cycle (folder → folder it
 * imports). Most run through db/ (db/schema.ts gathers every area's tables while each area reads db/types.ts)
 * or between identity and controlplane; untangling them is a refactor of its own. Every other step that
 * closes a cycle fails the check: remove an entry when its cycle is gone, never add one.
 */
const KNOWN_FOLDER_CYCLES = {
  analytics: ['controlplane', 'db', 'identity'],
  billing: ['controlplane', 'controlplane/store', 'db', 'identity'],
  controlplane: ['analytics', 'billing', 'db', 'identity', 'identity-admin', 'identity-schemas'],
  'controlplane/api-keys': ['controlplane'],
  'controlplane/store': ['controlplane', 'db', 'identity', 'identity-schemas'],
  db: ['analytics', 'billing', 'controlplane', 'identity'],
  identity: ['billing', 'controlplane', 'db', 'identity-admin', 'identity-schemas'],
  'identity-admin': ['controlplane', 'controlplane/api-keys', 'controlplane/store', 'db', 'identity', 'identity-schemas'],
  'identity-schemas': ['controlplane', 'db', 'identity', 'identity-admin'],
};

const folder = (name) => `^server/localstack/${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`;

/** No circular dependencies between the folders of the local stack, but for the known steps above. */
function localstackFolderCycleRules() {
  const rule = (from, to) => ({
    name: 'localstack-folders-acyclic',
    comment: 'The areas of the local stack (identity, controlplane, billing, …) do not depend on each other in a circle.',
    severity: 'error',
    scope: 'folder',
    from,
    to: { ...to, circular: true },
  });
  const known = Object.keys(KNOWN_FOLDER_CYCLES);
  return [
    rule({ path: '^server/localstack/', pathNot: known.map(folder) }, { path: '^server/localstack/' }),
    ...known.map((name) => rule({ path: folder(name) }, { path: '^server/localstack/', pathNot: KNOWN_FOLDER_CYCLES[name].map(folder) })),
  ];
}

module.exports = {
  forbidden: [
    {
      name: 'bff-not-into-localstack',
      comment:
        'The BFF talks to the local stack over HTTP only, as to the cloud (design §1); only the entry points that start the embedded stack import it.',
      severity: 'error',
      from: { path: '^server/', pathNot: ['^server/localstack/', ...LOCALSTACK_ENTRY_POINTS] },
      to: { path: '^server/localstack/' },
    },
    {
      name: 'shared-stands-alone',
      comment: 'shared/ holds the rules and schemas both sides use: it imports neither the server nor the client.',
      severity: 'error',
      from: { path: '^shared/' },
      to: { path: '^(server|client)/' },
    },
    {
      name: 'client-no-server-values',
      comment: 'The client imports `type AppRouter` and shared/ only, never a runtime value from server/ (design §3.1).',
      severity: 'error',
      from: { path: '^client/' },
      to: { path: '^server/', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'client-types-only-from-the-router',
      comment: 'The one server type the client reads is the router type of server/routers/_app.ts.',
      severity: 'error',
      from: { path: '^client/' },
      to: { path: '^server/', pathNot: '^server/routers/_app\\.ts$' },
    },
    {
      name: 'client-acyclic',
      comment:
        'No import circle in the client: the route registry names pages by id (page-registry.ts holds their code), so a page that links to a route imports no page code; the overlays read their open requests from open-requests.ts, not from the module that loads them.',
      severity: 'error',
      from: { path: '^client/' },
      to: { path: '^client/', circular: true },
    },
    ...localstackFolderCycleRules(),
  ],
  options: {
    // Type-only imports count (the client's AppRouter import is one), so the rules above can tell them apart.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    doNotFollow: { path: 'node_modules' },
    exclude: { path: ['node_modules', '^dist/', '^client/dist/'] },
  },
};
