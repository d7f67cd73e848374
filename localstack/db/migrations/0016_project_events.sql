CREATE TABLE "project_events" (
	"id" uuid PRIMARY KEY NOT NULL,
	"nid" uuid NOT NULL,
	"type" text NOT NULL,
	"occurred_at" timestamp with time zone NOT NULL,
	"identity_id" uuid,
	"attributes" jsonb NOT NULL
);
--> statement-breakpoint
CREATE INDEX "project_events_nid_time" ON "project_events" USING btree ("nid","occurred_at","id");--> statement-breakpoint
CREATE INDEX "project_events_nid_type_time" ON "project_events" USING btree ("nid","type","occurred_at");