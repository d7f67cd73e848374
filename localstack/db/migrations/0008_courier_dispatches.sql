CREATE TABLE "courier_message_dispatches" (
	"id" uuid PRIMARY KEY NOT NULL,
	"nid" uuid NOT NULL,
	"message_id" uuid NOT NULL,
	"status" text NOT NULL,
	"error" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "courier_messages" ADD COLUMN "send_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "courier_messages" ADD COLUMN "updated_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "courier_message_dispatches" ADD CONSTRAINT "courier_message_dispatches_message_id_fkey" FOREIGN KEY ("message_id") REFERENCES "public"."courier_messages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "courier_message_dispatches_message" ON "courier_message_dispatches" USING btree ("message_id","created_at");--> statement-breakpoint
CREATE INDEX "courier_messages_queue" ON "courier_messages" USING btree ("status","created_at");--> statement-breakpoint
UPDATE "courier_messages" SET "send_count" = 1 WHERE "status" = 'sent';