ALTER TABLE "report_public_faces" ADD COLUMN "sample_id" integer;--> statement-breakpoint
ALTER TABLE "report_public_faces" ADD COLUMN "item_name" varchar(255);--> statement-breakpoint
ALTER TABLE "report_public_faces" ADD COLUMN "category" varchar(255);--> statement-breakpoint
ALTER TABLE "report_public_faces" ADD COLUMN "status" varchar(50);--> statement-breakpoint
ALTER TABLE "report_public_faces" ADD COLUMN "submission_date" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "report_public_faces" ADD COLUMN "last_updated" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "report_public_faces" ADD COLUMN "assigned_staff_id" integer;--> statement-breakpoint
ALTER TABLE "report_public_faces" ADD COLUMN "report_generated_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "report_public_faces" ADD COLUMN "report_revoked_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "report_public_faces" ADD COLUMN "report_revoked_reason" text;--> statement-breakpoint
-- The faces carry the sample's columns the verification answer shows (decision 0033): a lookup then
-- reads its code's face and nothing of the sample.
CREATE OR REPLACE FUNCTION "report_public_faces_refresh"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  code varchar;
BEGIN
  FOR code IN
    SELECT DISTINCT x FROM unnest(ARRAY[
      CASE WHEN TG_OP <> 'INSERT' THEN OLD.report_code END,
      CASE WHEN TG_OP <> 'DELETE' THEN NEW.report_code END
    ]) AS x WHERE x IS NOT NULL
  LOOP
    INSERT INTO report_public_faces AS f (report_code, revision, issued_at, issued_by, reviewed_by, reviewed_at, face,
        elements, sample_id, item_name, category, status, submission_date, last_updated, assigned_staff_id,
        report_generated_at, report_revoked_at, report_revoked_reason)
      SELECT r.report_code, r.revision, r.issued_at, r.issued_by, r.reviewed_by, r.reviewed_at,
        report_public_face(r.content), report_public_face_elements(r.sample_id), s.id, s.item_name, s.category,
        s.status, s.submission_date, s.last_updated, s.assigned_staff_id, s.report_generated_at,
        s.report_revoked_at, s.report_revoked_reason
      FROM report_revisions r JOIN samples s ON s.id = r.sample_id
      WHERE r.report_code = code AND r.state = 'issued'
      ORDER BY r.revision DESC
      LIMIT 1
    ON CONFLICT (report_code) DO UPDATE SET revision = excluded.revision, issued_at = excluded.issued_at,
      issued_by = excluded.issued_by, reviewed_by = excluded.reviewed_by, reviewed_at = excluded.reviewed_at,
      face = excluded.face, elements = excluded.elements, sample_id = excluded.sample_id,
      item_name = excluded.item_name, category = excluded.category, status = excluded.status,
      submission_date = excluded.submission_date, last_updated = excluded.last_updated,
      assigned_staff_id = excluded.assigned_staff_id, report_generated_at = excluded.report_generated_at,
      report_revoked_at = excluded.report_revoked_at, report_revoked_reason = excluded.report_revoked_reason;
    IF NOT FOUND THEN
      DELETE FROM report_public_faces WHERE report_code = code;
    END IF;
  END LOOP;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE FUNCTION "report_public_faces_sample_refresh"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE report_public_faces f SET sample_id = NEW.id, item_name = NEW.item_name, category = NEW.category,
      status = NEW.status, submission_date = NEW.submission_date, last_updated = NEW.last_updated,
      assigned_staff_id = NEW.assigned_staff_id, report_generated_at = NEW.report_generated_at,
      report_revoked_at = NEW.report_revoked_at, report_revoked_reason = NEW.report_revoked_reason
    WHERE f.report_code IN (SELECT r.report_code FROM report_revisions r WHERE r.sample_id = NEW.id);
  RETURN NULL;
END
$$;--> statement-breakpoint
-- Only a sample that has (or gets) a report code, and only when a column the face shows changed: the
-- updates of samples still in the lab's work pay one comparison.
CREATE TRIGGER "report_public_faces_sample_keep" AFTER UPDATE ON "samples"
  FOR EACH ROW
  WHEN ((OLD.report_code IS NOT NULL OR NEW.report_code IS NOT NULL) AND (
    OLD.item_name, OLD.category, OLD.status, OLD.submission_date, OLD.last_updated, OLD.assigned_staff_id,
    OLD.report_generated_at, OLD.report_revoked_at, OLD.report_revoked_reason, OLD.report_code
  ) IS DISTINCT FROM (
    NEW.item_name, NEW.category, NEW.status, NEW.submission_date, NEW.last_updated, NEW.assigned_staff_id,
    NEW.report_generated_at, NEW.report_revoked_at, NEW.report_revoked_reason, NEW.report_code
  ))
  EXECUTE FUNCTION "report_public_faces_sample_refresh"();--> statement-breakpoint
-- Every face derived again with its sample's columns (a rebuild: no dead row versions).
TRUNCATE "report_public_faces";--> statement-breakpoint
INSERT INTO "report_public_faces" (report_code, revision, issued_at, issued_by, reviewed_by, reviewed_at, face,
    elements, sample_id, item_name, category, status, submission_date, last_updated, assigned_staff_id,
    report_generated_at, report_revoked_at, report_revoked_reason)
  SELECT DISTINCT ON (r.report_code) r.report_code, r.revision, r.issued_at, r.issued_by, r.reviewed_by, r.reviewed_at,
    report_public_face(r.content), report_public_face_elements(r.sample_id), s.id, s.item_name, s.category,
    s.status, s.submission_date, s.last_updated, s.assigned_staff_id, s.report_generated_at,
    s.report_revoked_at, s.report_revoked_reason
  FROM report_revisions r JOIN samples s ON s.id = r.sample_id
  WHERE r.state = 'issued'
  ORDER BY r.report_code, r.revision DESC;
