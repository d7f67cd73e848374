CREATE TABLE "project_branding_themes" (
	"id" uuid PRIMARY KEY NOT NULL,
	"project_branding_id" uuid NOT NULL,
	"name" text NOT NULL,
	"logo_url" text,
	"logo_type" text,
	"favicon_url" text,
	"favicon_type" text,
	"colors" jsonb NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "project_brandings" (
	"id" uuid PRIMARY KEY NOT NULL,
	"project_id" uuid NOT NULL,
	"default_theme_id" uuid,
	"base_theme_id" uuid,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "project_brandings_project_id_key" UNIQUE("project_id")
);
--> statement-breakpoint
ALTER TABLE "project_branding_themes" ADD CONSTRAINT "project_branding_themes_branding_fkey" FOREIGN KEY ("project_branding_id") REFERENCES "public"."project_brandings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "project_brandings" ADD CONSTRAINT "project_brandings_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "project_branding_themes_branding_idx" ON "project_branding_themes" USING btree ("project_branding_id","created_at");