CREATE TABLE "oauth2_artefacts" (
	"nid" uuid NOT NULL,
	"kind" text NOT NULL,
	"id" text NOT NULL,
	"payload" jsonb NOT NULL,
	"grant_id" text,
	"user_code" text,
	"uid" text,
	"expires_at" timestamp with time zone,
	"consumed_at" timestamp with time zone,
	CONSTRAINT "oauth2_artefacts_pkey" PRIMARY KEY("nid","kind","id")
);
--> statement-breakpoint
CREATE TABLE "oauth2_clients" (
	"nid" uuid NOT NULL,
	"id" text NOT NULL,
	"client_name" text DEFAULT '' NOT NULL,
	"owner" text DEFAULT '' NOT NULL,
	"secret" text,
	"data" jsonb NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "oauth2_clients_pkey" PRIMARY KEY("nid","id")
);
--> statement-breakpoint
CREATE TABLE "oauth2_keys" (
	"nid" uuid NOT NULL,
	"kid" text NOT NULL,
	"use" text NOT NULL,
	"jwk" jsonb,
	"secret" text,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "oauth2_keys_pkey" PRIMARY KEY("nid","kid")
);
--> statement-breakpoint
CREATE INDEX "oauth2_artefacts_grant" ON "oauth2_artefacts" USING btree ("nid","grant_id");--> statement-breakpoint
CREATE INDEX "oauth2_artefacts_uid" ON "oauth2_artefacts" USING btree ("nid","kind","uid");--> statement-breakpoint
CREATE INDEX "oauth2_artefacts_user_code" ON "oauth2_artefacts" USING btree ("nid","kind","user_code");--> statement-breakpoint
CREATE INDEX "oauth2_artefacts_expiry" ON "oauth2_artefacts" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "oauth2_clients_name" ON "oauth2_clients" USING btree ("nid","client_name","id");--> statement-breakpoint
CREATE INDEX "oauth2_clients_owner" ON "oauth2_clients" USING btree ("nid","owner","id");--> statement-breakpoint
CREATE INDEX "oauth2_keys_use" ON "oauth2_keys" USING btree ("nid","use","created_at");