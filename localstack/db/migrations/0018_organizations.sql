CREATE TABLE "onboarding_portal_links" (
	"id" uuid PRIMARY KEY NOT NULL,
	"organization_id" uuid NOT NULL,
	"project_id" uuid NOT NULL,
	"value" text NOT NULL,
	"enable_sso" boolean NOT NULL,
	"enable_scim" boolean NOT NULL,
	"custom_hostname_id" uuid,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "onboarding_portal_links_value_key" UNIQUE("value")
);
--> statement-breakpoint
CREATE TABLE "organizations" (
	"id" uuid PRIMARY KEY NOT NULL,
	"project_id" uuid NOT NULL,
	"label" text NOT NULL,
	"domains" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"default_region" text,
	"session_lifespan" text,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "onboarding_portal_links" ADD CONSTRAINT "onboarding_portal_links_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "organizations" ADD CONSTRAINT "organizations_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "onboarding_portal_links_organization_idx" ON "onboarding_portal_links" USING btree ("organization_id","created_at","id");--> statement-breakpoint
CREATE INDEX "organizations_project_idx" ON "organizations" USING btree ("project_id","created_at","id");