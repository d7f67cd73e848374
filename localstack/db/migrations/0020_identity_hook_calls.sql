CREATE TABLE "identity_hook_calls" (
	"id" uuid PRIMARY KEY NOT NULL,
	"project_id" uuid NOT NULL,
	"flow" text NOT NULL,
	"phase" text NOT NULL,
	"auth_method" text,
	"hook_path" text NOT NULL,
	"url" text NOT NULL,
	"http_method" text NOT NULL,
	"status" text NOT NULL,
	"response_code" integer,
	"latency_ms" integer NOT NULL,
	"interrupted" boolean NOT NULL,
	"error" text,
	"at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "identity_hook_calls" ADD CONSTRAINT "identity_hook_calls_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "identity_hook_calls_project_idx" ON "identity_hook_calls" USING btree ("project_id","at","id");