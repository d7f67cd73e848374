CREATE TABLE "relation_tuples" (
	"seq" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "relation_tuples_seq_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"project_id" uuid NOT NULL,
	"namespace" text NOT NULL,
	"object" text NOT NULL,
	"relation" text NOT NULL,
	"subject_id" text,
	"subject_set_namespace" text,
	"subject_set_object" text,
	"subject_set_relation" text,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "relation_tuples_key" UNIQUE NULLS NOT DISTINCT("project_id","namespace","object","relation","subject_id","subject_set_namespace","subject_set_object","subject_set_relation"),
	CONSTRAINT "relation_tuples_subject_check" CHECK (("relation_tuples"."subject_id" IS NOT NULL AND "relation_tuples"."subject_set_namespace" IS NULL AND "relation_tuples"."subject_set_object" IS NULL AND "relation_tuples"."subject_set_relation" IS NULL)
        OR ("relation_tuples"."subject_id" IS NULL AND "relation_tuples"."subject_set_namespace" IS NOT NULL AND "relation_tuples"."subject_set_object" IS NOT NULL AND "relation_tuples"."subject_set_relation" IS NOT NULL))
);
--> statement-breakpoint
CREATE INDEX "relation_tuples_subject_idx" ON "relation_tuples" USING btree ("project_id","subject_id","subject_set_namespace","subject_set_object","subject_set_relation");