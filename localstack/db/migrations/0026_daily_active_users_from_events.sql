-- Daily active users are read from the projects' SessionIssued events. A day an identity was active with no such event (recorded before events were) becomes one, so no bill changes.
INSERT INTO "project_events" ("id", "nid", "type", "occurred_at", "identity_id", "attributes")
SELECT gen_random_uuid(), a."project_id", 'SessionIssued', a."day"::timestamp AT TIME ZONE 'UTC', a."identity_id", jsonb_build_object('identity_id', a."identity_id"::text)
FROM "active_identities" a
WHERE NOT EXISTS (
  SELECT 1 FROM "project_events" e
  WHERE e."nid" = a."project_id" AND e."type" = 'SessionIssued' AND e."identity_id" = a."identity_id"
    AND e."occurred_at" >= a."day"::timestamp AT TIME ZONE 'UTC' AND e."occurred_at" < (a."day" + 1)::timestamp AT TIME ZONE 'UTC'
);--> statement-breakpoint
DROP TABLE "active_identities" CASCADE;
