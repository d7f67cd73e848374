import { defineConfig } from 'drizzle-kit';

// `npm run db:generate` diffs these schema files against the last snapshot in `out` and writes the next
// migration there; no database is needed. The local stack applies them with localstack/db/migrate.ts.
export default defineConfig({
  dialect: 'postgresql',
  schema: ['./localstack/identity/schema.ts', './localstack/project/schema.ts', './localstack/identity-schema/schema.ts', './localstack/billing/schema.ts', './localstack/analytics/schema.ts', './localstack/oauth2/schema.ts', './localstack/permission/schema.ts', './localstack/branding/schema.ts', './localstack/custom-domain/schema.ts', './localstack/event/schema.ts', './localstack/event-stream/schema.ts', './localstack/hook/schema.ts', './localstack/organization/schema.ts', './localstack/audit/schema.ts'],
  out: './localstack/db/migrations',
  strict: true,
  verbose: true,
});
