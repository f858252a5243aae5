CREATE TABLE "report_public_faces" (
	"report_code" varchar(8) PRIMARY KEY NOT NULL,
	"revision" integer NOT NULL,
	"issued_at" timestamp with time zone NOT NULL,
	"issued_by" integer,
	"reviewed_by" integer,
	"reviewed_at" timestamp with time zone,
	"face" jsonb
);
--> statement-breakpoint
CREATE FUNCTION "report_public_face"(c jsonb) RETURNS jsonb LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE WHEN c IS NULL OR jsonb_typeof(c) <> 'object' THEN NULL ELSE jsonb_build_object(
    'identification', CASE WHEN jsonb_typeof(c->'identification') = 'object' THEN c->'identification' END,
    'authenticity', CASE WHEN jsonb_typeof(c->'authenticity') = 'object'
      THEN jsonb_build_object('verdict', c->'authenticity'->'verdict') END,
    'condition', CASE WHEN jsonb_typeof(c->'condition') = 'object'
      THEN jsonb_build_object('grade', c->'condition'->'grade') END,
    'assignment', CASE WHEN jsonb_typeof(c->'assignment') = 'object'
      THEN jsonb_build_object('intendedUse', c->'assignment'->'intendedUse', 'inspection', c->'assignment'->'inspection') END,
    'photoIds', CASE WHEN jsonb_typeof(c->'photoIds') = 'array' THEN c->'photoIds' END,
    'valuation', CASE WHEN jsonb_typeof(c->'valuation') = 'object' THEN (c->'valuation') - 'basis'::text END
  ) END
$$;--> statement-breakpoint
CREATE FUNCTION "report_public_faces_refresh"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  code varchar;
BEGIN
  FOR code IN
    SELECT DISTINCT x FROM unnest(ARRAY[
      CASE WHEN TG_OP <> 'INSERT' THEN OLD.report_code END,
      CASE WHEN TG_OP <> 'DELETE' THEN NEW.report_code END
    ]) AS x WHERE x IS NOT NULL
  LOOP
    INSERT INTO report_public_faces AS f (report_code, revision, issued_at, issued_by, reviewed_by, reviewed_at, face)
      SELECT r.report_code, r.revision, r.issued_at, r.issued_by, r.reviewed_by, r.reviewed_at, report_public_face(r.content)
      FROM report_revisions r
      WHERE r.report_code = code AND r.state = 'issued'
      ORDER BY r.revision DESC
      LIMIT 1
    ON CONFLICT (report_code) DO UPDATE SET revision = excluded.revision, issued_at = excluded.issued_at,
      issued_by = excluded.issued_by, reviewed_by = excluded.reviewed_by, reviewed_at = excluded.reviewed_at,
      face = excluded.face;
    IF NOT FOUND THEN
      DELETE FROM report_public_faces WHERE report_code = code;
    END IF;
  END LOOP;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "report_public_faces_keep" AFTER INSERT OR UPDATE OR DELETE ON "report_revisions"
  FOR EACH ROW EXECUTE FUNCTION "report_public_faces_refresh"();--> statement-breakpoint
CREATE FUNCTION "report_public_faces_clear"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  TRUNCATE report_public_faces;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "report_public_faces_truncate" AFTER TRUNCATE ON "report_revisions"
  FOR EACH STATEMENT EXECUTE FUNCTION "report_public_faces_clear"();--> statement-breakpoint
INSERT INTO "report_public_faces" (report_code, revision, issued_at, issued_by, reviewed_by, reviewed_at, face)
  SELECT DISTINCT ON (r.report_code) r.report_code, r.revision, r.issued_at, r.issued_by, r.reviewed_by, r.reviewed_at,
    report_public_face(r.content)
  FROM report_revisions r
  WHERE r.state = 'issued'
  ORDER BY r.report_code, r.revision DESC;
