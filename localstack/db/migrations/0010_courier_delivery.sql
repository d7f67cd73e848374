ALTER TABLE "courier_messages" ADD COLUMN "html_body" text;--> statement-breakpoint
ALTER TABLE "courier_messages" ADD COLUMN "template_data" jsonb;