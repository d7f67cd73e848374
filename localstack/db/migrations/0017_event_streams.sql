CREATE TABLE "event_stream_attempts" (
	"id" uuid PRIMARY KEY NOT NULL,
	"stream_id" uuid NOT NULL,
	"delivery_id" uuid NOT NULL,
	"attempt" integer NOT NULL,
	"status" text NOT NULL,
	"response_code" integer,
	"latency_ms" integer NOT NULL,
	"error" text,
	"at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "event_stream_deliveries" (
	"id" uuid PRIMARY KEY NOT NULL,
	"stream_id" uuid NOT NULL,
	"event_id" uuid,
	"event_type" text NOT NULL,
	"payload" jsonb NOT NULL,
	"status" text NOT NULL,
	"attempts" integer NOT NULL,
	"next_attempt_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "event_streams" (
	"id" uuid PRIMARY KEY NOT NULL,
	"project_id" uuid NOT NULL,
	"type" text NOT NULL,
	"status" text NOT NULL,
	"https_endpoint" text,
	"topic_arn" text,
	"role_arn" text,
	"secret" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "event_stream_attempts" ADD CONSTRAINT "event_stream_attempts_delivery_id_fkey" FOREIGN KEY ("delivery_id") REFERENCES "public"."event_stream_deliveries"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "event_stream_attempts" ADD CONSTRAINT "event_stream_attempts_stream_id_fkey" FOREIGN KEY ("stream_id") REFERENCES "public"."event_streams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "event_stream_deliveries" ADD CONSTRAINT "event_stream_deliveries_stream_id_fkey" FOREIGN KEY ("stream_id") REFERENCES "public"."event_streams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "event_streams" ADD CONSTRAINT "event_streams_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "event_stream_attempts_stream_idx" ON "event_stream_attempts" USING btree ("stream_id","at","id");--> statement-breakpoint
CREATE INDEX "event_stream_deliveries_due_idx" ON "event_stream_deliveries" USING btree ("status","next_attempt_at");--> statement-breakpoint
CREATE INDEX "event_streams_project_idx" ON "event_streams" USING btree ("project_id","created_at","id");