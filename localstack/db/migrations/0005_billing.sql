CREATE TABLE "active_identities" (
	"project_id" uuid NOT NULL,
	"day" date NOT NULL,
	"identity_id" uuid NOT NULL,
	CONSTRAINT "active_identities_pkey" PRIMARY KEY("project_id","day","identity_id")
);
--> statement-breakpoint
CREATE TABLE "subscription_changes" (
	"subscription_id" uuid NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"plan" text NOT NULL,
	"interval" text NOT NULL,
	CONSTRAINT "subscription_changes_pkey" PRIMARY KEY("subscription_id","at")
);
--> statement-breakpoint
CREATE TABLE "usage_counters" (
	"project_id" uuid NOT NULL,
	"day" date NOT NULL,
	"metric" text NOT NULL,
	"count" bigint NOT NULL,
	CONSTRAINT "usage_counters_pkey" PRIMARY KEY("project_id","metric","day")
);
--> statement-breakpoint
ALTER TABLE "subscription_changes" ADD CONSTRAINT "subscription_changes_subscription_id_fkey" FOREIGN KEY ("subscription_id") REFERENCES "public"."subscriptions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "usage_counters_day" ON "usage_counters" USING btree ("day");