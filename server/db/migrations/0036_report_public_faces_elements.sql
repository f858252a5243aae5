-- Public faces carry the sample's report elements too (decision 0033): a verification at any size
-- then reads the sample and its face, not the elements' index and rows as well.
ALTER TABLE "report_public_faces" ADD COLUMN "elements" jsonb;--> statement-breakpoint
CREATE FUNCTION "report_public_face_elements"(sample integer) RETURNS jsonb LANGUAGE sql STABLE AS $$
  SELECT jsonb_agg(jsonb_build_object('element', e.element, 'percentage', e.percentage, 'purity', e.purity,
    'quality', e.quality) ORDER BY e.id)
  FROM report_elements e WHERE e.sample_id = sample
$$;--> statement-breakpoint
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
    INSERT INTO report_public_faces AS f (report_code, revision, issued_at, issued_by, reviewed_by, reviewed_at, face, elements)
      SELECT r.report_code, r.revision, r.issued_at, r.issued_by, r.reviewed_by, r.reviewed_at,
        report_public_face(r.content), report_public_face_elements(r.sample_id)
      FROM report_revisions r
      WHERE r.report_code = code AND r.state = 'issued'
      ORDER BY r.revision DESC
      LIMIT 1
    ON CONFLICT (report_code) DO UPDATE SET revision = excluded.revision, issued_at = excluded.issued_at,
      issued_by = excluded.issued_by, reviewed_by = excluded.reviewed_by, reviewed_at = excluded.reviewed_at,
      face = excluded.face, elements = excluded.elements;
    IF NOT FOUND THEN
      DELETE FROM report_public_faces WHERE report_code = code;
    END IF;
  END LOOP;
  RETURN NULL;
END
$$;--> statement-breakpoint
-- A change of a sample's elements reaches the face of its code (found through its revisions, which
-- carry the code whatever the order the issuing writes the sample, the revision and the elements in).
CREATE FUNCTION "report_public_faces_elements_refresh"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  sid integer;
BEGIN
  FOR sid IN
    SELECT DISTINCT x FROM unnest(ARRAY[
      CASE WHEN TG_OP <> 'INSERT' THEN OLD.sample_id END,
      CASE WHEN TG_OP <> 'DELETE' THEN NEW.sample_id END
    ]) AS x WHERE x IS NOT NULL
  LOOP
    UPDATE report_public_faces f SET elements = report_public_face_elements(sid)
      WHERE f.report_code IN (SELECT r.report_code FROM report_revisions r WHERE r.sample_id = sid);
  END LOOP;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "report_public_faces_elements_keep" AFTER INSERT OR UPDATE OR DELETE ON "report_elements"
  FOR EACH ROW EXECUTE FUNCTION "report_public_faces_elements_refresh"();--> statement-breakpoint
CREATE FUNCTION "report_public_faces_elements_clear"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE report_public_faces SET elements = NULL WHERE elements IS NOT NULL;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "report_public_faces_elements_truncate" AFTER TRUNCATE ON "report_elements"
  FOR EACH STATEMENT EXECUTE FUNCTION "report_public_faces_elements_clear"();--> statement-breakpoint
-- Every face derived again, with its elements: a rebuild rather than an update of each row, so the
-- table is written once and holds no dead row versions.
TRUNCATE "report_public_faces";--> statement-breakpoint
INSERT INTO "report_public_faces" (report_code, revision, issued_at, issued_by, reviewed_by, reviewed_at, face, elements)
  SELECT DISTINCT ON (r.report_code) r.report_code, r.revision, r.issued_at, r.issued_by, r.reviewed_by, r.reviewed_at,
    report_public_face(r.content), report_public_face_elements(r.sample_id)
  FROM report_revisions r
  WHERE r.state = 'issued'
  ORDER BY r.report_code, r.revision DESC;
