ALTER TABLE "identities" ADD COLUMN "metadata_public" jsonb;--> statement-breakpoint
ALTER TABLE "identities" ADD COLUMN "metadata_admin" jsonb;