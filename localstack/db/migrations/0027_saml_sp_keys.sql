CREATE TABLE "saml_sessions" (
	"nid" uuid NOT NULL,
	"session_id" uuid NOT NULL,
	"provider" text NOT NULL,
	"name_id" text NOT NULL,
	"name_id_format" text,
	"session_index" text,
	CONSTRAINT "saml_sessions_pkey" PRIMARY KEY("session_id")
);
--> statement-breakpoint
CREATE TABLE "saml_sp_keys" (
	"nid" uuid NOT NULL,
	"private_key" text NOT NULL,
	"certificate" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "saml_sp_keys_pkey" PRIMARY KEY("nid")
);
--> statement-breakpoint
ALTER TABLE "saml_sessions" ADD CONSTRAINT "saml_sessions_session_id_fkey" FOREIGN KEY ("session_id") REFERENCES "public"."sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "saml_sessions_subject" ON "saml_sessions" USING btree ("nid","provider","name_id");