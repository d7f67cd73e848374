import { defineConfig } from 'drizzle-kit';

// `npm run db:generate` diffs these schema files against the last snapshot in `out` and writes the next
// migration there; no database is needed. The local stack applies them with server/localstack/db/migrate.ts.
export default defineConfig({
  dialect: 'postgresql',
  schema: ['./server/localstack/identity/schema.ts', './server/localstack/controlplane/schema.ts', './server/localstack/billing/schema.ts', './server/localstack/analytics/schema.ts'],
  out: './server/localstack/db/migrations',
  strict: true,
  verbose: true,
});
