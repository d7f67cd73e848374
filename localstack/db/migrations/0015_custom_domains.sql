CREATE TABLE "custom_domains" (
	"id" uuid PRIMARY KEY NOT NULL,
	"project_id" uuid NOT NULL,
	"hostname" text NOT NULL,
	"cookie_domain" text DEFAULT '' NOT NULL,
	"custom_ui_base_url" text DEFAULT '' NOT NULL,
	"cors_enabled" boolean DEFAULT false NOT NULL,
	"cors_allowed_origins" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"ssl_status" text NOT NULL,
	"verification_status" text NOT NULL,
	"verification_errors" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"verified_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "custom_domains_hostname_key" UNIQUE("hostname")
);
--> statement-breakpoint
ALTER TABLE "custom_domains" ADD CONSTRAINT "custom_domains_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "custom_domains_project_idx" ON "custom_domains" USING btree ("project_id","created_at","id");