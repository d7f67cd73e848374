ALTER TABLE "identities" ADD COLUMN "organization_id" uuid;--> statement-breakpoint
CREATE INDEX "identities_organization_idx" ON "identities" USING btree ("nid","organization_id");