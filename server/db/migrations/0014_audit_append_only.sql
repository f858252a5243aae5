-- The audit trail is append-only (docs/product/audit-trail.md): the database itself refuses to change
-- or remove an event, whoever asks, on PGlite and PostgreSQL alike. Only the table's owner or a
-- superuser could switch these triggers off, and the hash chain would then show what was touched.
CREATE FUNCTION "audit_events_refuse_change"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'audit events are append-only: % refused', TG_OP USING ERRCODE = 'insufficient_privilege';
END $$;
--> statement-breakpoint
CREATE TRIGGER "audit_events_no_update" BEFORE UPDATE ON "audit_events"
  FOR EACH ROW EXECUTE FUNCTION "audit_events_refuse_change"();
--> statement-breakpoint
CREATE TRIGGER "audit_events_no_delete" BEFORE DELETE ON "audit_events"
  FOR EACH ROW EXECUTE FUNCTION "audit_events_refuse_change"();
--> statement-breakpoint
CREATE TRIGGER "audit_events_no_truncate" BEFORE TRUNCATE ON "audit_events"
  FOR EACH STATEMENT EXECUTE FUNCTION "audit_events_refuse_change"();
--> statement-breakpoint
-- The chain's head: exactly one row, which may move forward but never be removed.
CREATE FUNCTION "audit_chain_head_refuse_removal"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'the audit chain head cannot be removed' USING ERRCODE = 'insufficient_privilege';
END $$;
--> statement-breakpoint
CREATE TRIGGER "audit_chain_head_no_delete" BEFORE DELETE ON "audit_chain_head"
  FOR EACH ROW EXECUTE FUNCTION "audit_chain_head_refuse_removal"();
--> statement-breakpoint
CREATE TRIGGER "audit_chain_head_no_truncate" BEFORE TRUNCATE ON "audit_chain_head"
  FOR EACH STATEMENT EXECUTE FUNCTION "audit_chain_head_refuse_removal"();
--> statement-breakpoint
ALTER TABLE "audit_chain_head" ADD CONSTRAINT "audit_chain_head_one_row" CHECK ("id" = 1);
--> statement-breakpoint
INSERT INTO "audit_chain_head" ("id", "seq", "last_hash") VALUES (1, 0, repeat('0', 64));
