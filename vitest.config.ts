import { configDefaults, defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          sequence: { groupOrder: 0 },
          include: ['shared/**/*.test.ts', 'server/**/*.unit.test.ts', 'localstack/**/*.unit.test.ts', 'client/**/*.test.ts'],
          environment: 'node',
          // Files share a worker's module graph: importing every module afresh per file was four fifths of the
          // project's CPU time. A test that fakes timers or changes the environment puts them back after itself.
          isolate: false,
        },
      },
      {
        test: {
          // Components as a user meets them: rendered in happy-dom, driven with Testing Library.
          name: 'component',
          sequence: { groupOrder: 0 },
          include: ['client/**/*.component.test.tsx'],
          environment: 'happy-dom',
        },
      },
      {
        test: {
          name: 'integration',
          sequence: { groupOrder: 1 },
          include: ['server/**/*.int.test.ts', 'localstack/**/*.int.test.ts'],
          // *.pg.int.test.ts exercise what only a PostgreSQL server does (terminated backends); they run when
          // DATABASE_URL names one.
          exclude: [...configDefaults.exclude, ...(process.env.DATABASE_URL ? [] : ['server/**/*.pg.int.test.ts', 'localstack/**/*.pg.int.test.ts'])],
          environment: 'node',
          // Every answer of a test stack is checked against Ory's OpenAPI; the run prints the count.
          globalSetup: ['server/test-support/wire-global-setup.ts', 'server/test-support/database-global-setup.ts'],
          setupFiles: ['server/test-support/wire-setup.ts'],
          // Budgets, not checks: on a 2-core machine that runs at half speed, with the journeys beside the
          // PostgreSQL pass, a test that takes 3 s alone took past 30 s and a suite's start past 60 s.
          testTimeout: 90_000,
          hookTimeout: 180_000,
          // Each file starts its own local stack on a fresh database; two cores, so keep it modest.
          maxWorkers: 2,
          // Files share a worker's module graph instead of importing the server, the local stack and PGlite
          // afresh each (that import was half the suite's CPU time). Nothing a file needs is module state:
          // every file starts its own stack, and no test mocks modules or changes the environment.
          isolate: false,
        },
      },
    ],
  },
});
