DROP INDEX "project_events_nid_type_time";--> statement-breakpoint
CREATE INDEX "project_events_nid_type_time_identity" ON "project_events" USING btree ("nid","type","occurred_at","identity_id");