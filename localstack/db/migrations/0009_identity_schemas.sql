CREATE TABLE "managed_identity_schemas" (
	"id" uuid PRIMARY KEY NOT NULL,
	"project_id" uuid NOT NULL,
	"name" text NOT NULL,
	"blob_name" text NOT NULL,
	"content" jsonb NOT NULL,
	"content_hash" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "managed_identity_schemas_project_id_name_key" UNIQUE("project_id","name")
);
--> statement-breakpoint
ALTER TABLE "managed_identity_schemas" ADD CONSTRAINT "managed_identity_schemas_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "managed_identity_schemas_project_created_idx" ON "managed_identity_schemas" USING btree ("project_id","created_at","id");