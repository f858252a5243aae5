-- The public faces' triggers (decision 0033) as single-table statements, each on an index whatever the
-- statistics say. Their first form joined the revisions to the samples; with the statistics of a
-- table just filled (a restore, an import, the verification benchmark's seed: thousands of revisions
-- in one statement), the planner drove that join from a full scan of the samples, once per revision:
-- 4,000 revisions took 32 s. Now the latest issued revision is read by its code, then its sample by
-- id; the elements' aggregate is PL/pgSQL so its plan is kept for the session.
CREATE OR REPLACE FUNCTION "report_public_face_elements"(sample integer) RETURNS jsonb LANGUAGE plpgsql STABLE AS $$
BEGIN
  RETURN (SELECT jsonb_agg(jsonb_build_object('element', e.element, 'percentage', e.percentage,
      'purity', e.purity, 'quality', e.quality) ORDER BY e.id)
    FROM report_elements e WHERE e.sample_id = sample);
END
$$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION "report_public_faces_refresh"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  code varchar;
  r report_revisions%ROWTYPE;
  s samples%ROWTYPE;
BEGIN
  FOR code IN
    SELECT DISTINCT x FROM unnest(ARRAY[
      CASE WHEN TG_OP <> 'INSERT' THEN OLD.report_code END,
      CASE WHEN TG_OP <> 'DELETE' THEN NEW.report_code END
    ]) AS x WHERE x IS NOT NULL
  LOOP
    SELECT * INTO r FROM report_revisions
      WHERE report_code = code AND state = 'issued' ORDER BY revision DESC LIMIT 1;
    IF NOT FOUND THEN
      DELETE FROM report_public_faces WHERE report_code = code;
      CONTINUE;
    END IF;
    SELECT * INTO s FROM samples WHERE id = r.sample_id;
    INSERT INTO report_public_faces AS f (report_code, revision, issued_at, issued_by, reviewed_by, reviewed_at, face,
        elements, sample_id, item_name, category, status, submission_date, last_updated, assigned_staff_id,
        report_generated_at, report_revoked_at, report_revoked_reason)
      VALUES (r.report_code, r.revision, r.issued_at, r.issued_by, r.reviewed_by, r.reviewed_at,
        report_public_face(r.content), report_public_face_elements(r.sample_id), s.id, s.item_name, s.category,
        s.status, s.submission_date, s.last_updated, s.assigned_staff_id, s.report_generated_at,
        s.report_revoked_at, s.report_revoked_reason)
    ON CONFLICT (report_code) DO UPDATE SET revision = excluded.revision, issued_at = excluded.issued_at,
      issued_by = excluded.issued_by, reviewed_by = excluded.reviewed_by, reviewed_at = excluded.reviewed_at,
      face = excluded.face, elements = excluded.elements, sample_id = excluded.sample_id,
      item_name = excluded.item_name, category = excluded.category, status = excluded.status,
      submission_date = excluded.submission_date, last_updated = excluded.last_updated,
      assigned_staff_id = excluded.assigned_staff_id, report_generated_at = excluded.report_generated_at,
      report_revoked_at = excluded.report_revoked_at, report_revoked_reason = excluded.report_revoked_reason;
  END LOOP;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION "report_public_faces_elements_refresh"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  sid integer;
  code varchar;
BEGIN
  FOR sid IN
    SELECT DISTINCT x FROM unnest(ARRAY[
      CASE WHEN TG_OP <> 'INSERT' THEN OLD.sample_id END,
      CASE WHEN TG_OP <> 'DELETE' THEN NEW.sample_id END
    ]) AS x WHERE x IS NOT NULL
  LOOP
    FOR code IN SELECT DISTINCT report_code FROM report_revisions WHERE sample_id = sid LOOP
      UPDATE report_public_faces SET elements = report_public_face_elements(sid) WHERE report_code = code;
    END LOOP;
  END LOOP;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION "report_public_faces_sample_refresh"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  code varchar;
BEGIN
  FOR code IN SELECT DISTINCT report_code FROM report_revisions WHERE sample_id = NEW.id LOOP
    UPDATE report_public_faces SET sample_id = NEW.id, item_name = NEW.item_name, category = NEW.category,
        status = NEW.status, submission_date = NEW.submission_date, last_updated = NEW.last_updated,
        assigned_staff_id = NEW.assigned_staff_id, report_generated_at = NEW.report_generated_at,
        report_revoked_at = NEW.report_revoked_at, report_revoked_reason = NEW.report_revoked_reason
      WHERE report_code = code;
  END LOOP;
  RETURN NULL;
END
$$;
