-- Identity search reads one trigram index for the email and name traits instead of one each: a term's
-- common trigrams (every identifier's domain, a shared prefix) cost a read of nearly all the tenant's
-- entries in each index it asks, so two indexes cost twice. A newline joins the two traits, so no
-- trigram spans them; the search checks each trait itself on the rows the index finds.
DROP INDEX IF EXISTS identities_email_trgm;
--> statement-breakpoint
DROP INDEX IF EXISTS identities_name_trgm;
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS identities_traits_trgm ON identities USING gin ((lower(coalesce(traits->>'email', '') || E'\n' || coalesce(traits->>'name', ''))) public.gin_trgm_ops);
