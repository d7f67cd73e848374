-- Identity search (any part of an identifier, the email or the name trait) answers from trigram indexes
-- instead of scanning every identity's JSON. pg_trgm lives in the public schema so that every schema
-- migrated in this database (tests use one each) reaches the same operator class.
CREATE EXTENSION IF NOT EXISTS pg_trgm WITH SCHEMA public;
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS identity_credentials_identifier_trgm ON identity_credentials USING gin (lower(identifier) public.gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS identities_email_trgm ON identities USING gin (lower(traits->>'email') public.gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS identities_name_trgm ON identities USING gin (lower(traits->>'name') public.gin_trgm_ops);
