-- Rows written before tenancy belong to the console's own tenant (CONSOLE_NID in identity/tenant-id.ts):
-- each column is added with that default, which is then dropped so every later insert names its tenant.
DROP INDEX "courier_messages_recipient";--> statement-breakpoint
DROP INDEX "identity_credentials_identifier";--> statement-breakpoint
DROP INDEX "identity_recovery_addresses_value";--> statement-breakpoint
DROP INDEX "identity_verifiable_addresses_value";--> statement-breakpoint
ALTER TABLE "courier_messages" ADD COLUMN "nid" uuid DEFAULT '00000000-0000-4000-8000-000000000c01' NOT NULL;--> statement-breakpoint
ALTER TABLE "courier_messages" ALTER COLUMN "nid" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "identities" ADD COLUMN "nid" uuid DEFAULT '00000000-0000-4000-8000-000000000c01' NOT NULL;--> statement-breakpoint
ALTER TABLE "identities" ALTER COLUMN "nid" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "identity_credentials" ADD COLUMN "nid" uuid DEFAULT '00000000-0000-4000-8000-000000000c01' NOT NULL;--> statement-breakpoint
ALTER TABLE "identity_credentials" ALTER COLUMN "nid" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "identity_recovery_addresses" ADD COLUMN "nid" uuid DEFAULT '00000000-0000-4000-8000-000000000c01' NOT NULL;--> statement-breakpoint
ALTER TABLE "identity_recovery_addresses" ALTER COLUMN "nid" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "identity_verifiable_addresses" ADD COLUMN "nid" uuid DEFAULT '00000000-0000-4000-8000-000000000c01' NOT NULL;--> statement-breakpoint
ALTER TABLE "identity_verifiable_addresses" ALTER COLUMN "nid" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "selfservice_codes" ADD COLUMN "nid" uuid DEFAULT '00000000-0000-4000-8000-000000000c01' NOT NULL;--> statement-breakpoint
ALTER TABLE "selfservice_codes" ALTER COLUMN "nid" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "selfservice_errors" ADD COLUMN "nid" uuid DEFAULT '00000000-0000-4000-8000-000000000c01' NOT NULL;--> statement-breakpoint
ALTER TABLE "selfservice_errors" ALTER COLUMN "nid" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "selfservice_flows" ADD COLUMN "nid" uuid DEFAULT '00000000-0000-4000-8000-000000000c01' NOT NULL;--> statement-breakpoint
ALTER TABLE "selfservice_flows" ALTER COLUMN "nid" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "nid" uuid DEFAULT '00000000-0000-4000-8000-000000000c01' NOT NULL;--> statement-breakpoint
ALTER TABLE "sessions" ALTER COLUMN "nid" DROP DEFAULT;--> statement-breakpoint
CREATE INDEX "courier_messages_nid" ON "courier_messages" USING btree ("nid","created_at" DESC NULLS FIRST,"id");--> statement-breakpoint
CREATE INDEX "identities_nid" ON "identities" USING btree ("nid","id");--> statement-breakpoint
CREATE INDEX "sessions_nid" ON "sessions" USING btree ("nid","id");--> statement-breakpoint
CREATE INDEX "courier_messages_recipient" ON "courier_messages" USING btree ("nid","recipient","created_at" DESC NULLS FIRST);--> statement-breakpoint
CREATE UNIQUE INDEX "identity_credentials_identifier" ON "identity_credentials" USING btree ("nid","type","identifier");--> statement-breakpoint
CREATE UNIQUE INDEX "identity_recovery_addresses_value" ON "identity_recovery_addresses" USING btree ("nid","via","value");--> statement-breakpoint
CREATE UNIQUE INDEX "identity_verifiable_addresses_value" ON "identity_verifiable_addresses" USING btree ("nid","via","value");