/**
 * The layering rules of docs/design.md, checked by `npm run lint:deps` (part of `npm test`).
 * Paths are relative to the repository root. The local stack's folder rule (no circle between its folders,
 * product code only) is in .dependency-cruiser.folders.cjs, run by the same script.
 */

/** Where the local stack may be started or reached into from the BFF. */
const LOCALSTACK_ENTRY_POINTS = [
  // Starts the embedded stack when no upstream is configured.
  '^server/main\\.ts$',
  // Runs the embedded stack in its own thread (server/embedded-stack.ts starts it).
  '^server/embedded-stack-worker\\.ts$',
  // Test stacks, users and the wire recorder.
  '^server/test-support/',
  // Integration tests that start their own stack or set up state straight in its store (plans, invites, queued mail).
  '^server/log-secrets\\.int\\.test\\.ts$',
  '^server/request-timeout\\.int\\.test\\.ts$',
  '^server/routers/every-procedure\\.int\\.test\\.ts$',
  '^server/routers/team\\.int\\.test\\.ts$',
];

const TESTS = '\\.test\\.ts$';

module.exports = {
  forbidden: [
    {
      name: 'bff-not-into-localstack',
      comment:
        'The BFF talks to the local stack over HTTP only, as to the cloud (design §1); only the entry points that start the embedded stack import it.',
      severity: 'error',
      from: { path: '^(server|client|shared)/', pathNot: LOCALSTACK_ENTRY_POINTS },
      to: { path: '^localstack/' },
    },
    {
      name: 'localstack-not-into-bff',
      comment: 'The local stack is its own program: it imports shared/ and, in its tests, server/test-support/ only.',
      severity: 'error',
      from: { path: '^localstack/' },
      to: { path: '^(server|client)/', pathNot: '^server/test-support/' },
    },
    {
      name: 'localstack-test-support-in-tests-only',
      comment: 'Only tests reach the BFF\'s test support from the local stack.',
      severity: 'error',
      from: { path: '^localstack/', pathNot: [TESTS, '^localstack/test-support/'] },
      to: { path: '^(server/test-support|localstack/test-support)/' },
    },
    {
      name: 'kernel-imports-no-domain',
      comment: 'localstack/kernel/ is what every domain folder (and db/) builds on: it imports itself only.',
      severity: 'error',
      from: { path: '^localstack/kernel/', pathNot: TESTS },
      to: { path: '^localstack/', pathNot: '^localstack/kernel/' },
    },
    {
      name: 'db-imports-kernel-only',
      comment: 'localstack/db/ (client, migrations, templates) imports the kernel only: its handle names no domain\'s tables.',
      severity: 'error',
      from: { path: '^localstack/db/', pathNot: TESTS },
      to: { path: '^localstack/', pathNot: '^localstack/(kernel|db)/' },
    },
    {
      name: 'shared-stands-alone',
      comment: 'shared/ holds the rules and schemas both sides use: it imports neither the server nor the client.',
      severity: 'error',
      from: { path: '^shared/' },
      to: { path: '^(server|client|localstack)/' },
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
  ],
  options: {
    // Type-only imports count (the client's AppRouter import is one), so the rules above can tell them apart.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    doNotFollow: { path: 'node_modules' },
    exclude: { path: ['node_modules', '^dist/', '^client/dist/', '^client/dist-ssr/'] },
  },
};
