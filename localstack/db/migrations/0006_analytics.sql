CREATE TABLE "analytics_events" (
	"id" uuid PRIMARY KEY NOT NULL,
	"received_at" timestamp with time zone NOT NULL,
	"event" text NOT NULL,
	"distinct_id" text,
	"session_id" text,
	"occurred_at" timestamp with time zone NOT NULL,
	"properties" jsonb NOT NULL
);
--> statement-breakpoint
CREATE INDEX "analytics_events_received" ON "analytics_events" USING btree ("received_at","id");--> statement-breakpoint
CREATE INDEX "analytics_events_event" ON "analytics_events" USING btree ("event","received_at");