CREATE TABLE "member_invites" (
	"id" uuid PRIMARY KEY NOT NULL,
	"project_id" uuid,
	"workspace_id" uuid,
	"invitee_email" text NOT NULL,
	"invitee_id" uuid,
	"owner_id" uuid NOT NULL,
	"role" text NOT NULL,
	"status" text NOT NULL,
	"token_hash" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "member_invites_token_hash_key" UNIQUE("token_hash"),
	CONSTRAINT "member_invites_role_check" CHECK ("member_invites"."role" IN ('owner', 'developer')),
	CONSTRAINT "member_invites_status_check" CHECK ("member_invites"."status" IN ('pending', 'accepted', 'declined', 'expired', 'cancelled', 'removed')),
	CONSTRAINT "member_invites_one_scope_check" CHECK (("member_invites"."project_id" IS NULL) <> ("member_invites"."workspace_id" IS NULL))
);
--> statement-breakpoint
CREATE TABLE "subscriptions" (
	"id" uuid PRIMARY KEY NOT NULL,
	"project_id" uuid,
	"workspace_id" uuid,
	"plan" text NOT NULL,
	"interval" text DEFAULT 'monthly' NOT NULL,
	"currency" text DEFAULT 'usd' NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "subscriptions_project_id_key" UNIQUE("project_id"),
	CONSTRAINT "subscriptions_workspace_id_key" UNIQUE("workspace_id"),
	CONSTRAINT "subscriptions_one_scope_check" CHECK (("subscriptions"."project_id" IS NULL) <> ("subscriptions"."workspace_id" IS NULL)),
	CONSTRAINT "subscriptions_interval_check" CHECK ("subscriptions"."interval" IN ('monthly', 'yearly')),
	CONSTRAINT "subscriptions_currency_check" CHECK ("subscriptions"."currency" IN ('usd', 'eur'))
);
--> statement-breakpoint
ALTER TABLE "member_invites" ADD CONSTRAINT "member_invites_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "member_invites" ADD CONSTRAINT "member_invites_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "member_invites" ADD CONSTRAINT "member_invites_owner_id_fkey" FOREIGN KEY ("owner_id") REFERENCES "public"."identities"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "member_invites" ADD CONSTRAINT "member_invites_invitee_id_fkey" FOREIGN KEY ("invitee_id") REFERENCES "public"."identities"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD CONSTRAINT "subscriptions_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD CONSTRAINT "subscriptions_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "member_invites_project_idx" ON "member_invites" USING btree ("project_id","created_at");--> statement-breakpoint
CREATE INDEX "member_invites_workspace_idx" ON "member_invites" USING btree ("workspace_id","created_at");--> statement-breakpoint
CREATE INDEX "member_invites_invitee_email_idx" ON "member_invites" USING btree ("invitee_email");