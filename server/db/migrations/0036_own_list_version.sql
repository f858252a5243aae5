ALTER TABLE "users" ADD COLUMN "samples_version" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
-- The own list's answer (GET /api/samples) is reused while the owner's samples_version stands
-- (docs/decisions/0035-own-list-reuse.md). These triggers bump it in the same transaction as any
-- change to a sample row or to one of its files, whatever code path made it: once per statement and
-- owner, the owners in id order (two statements touching several owners lock them in one order).
-- Each bump is one UPDATE written out in the trigger function, whose plan PL/pgSQL keeps: a helper
-- function taking an array cost the submission 0.3 ms more of the database's CPU (benchmarks.md).
-- A file's owner is looked up by the sample's primary key, row by row: a plan kept from when the
-- samples table was small would otherwise scan all of it on every photo.
CREATE FUNCTION "samples_version_on_samples"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    UPDATE "users" AS u SET "samples_version" = u."samples_version" + 1
      FROM (SELECT DISTINCT "user_id" FROM "new_samples" ORDER BY 1) AS c WHERE u."id" = c."user_id";
  ELSIF TG_OP = 'DELETE' THEN
    UPDATE "users" AS u SET "samples_version" = u."samples_version" + 1
      FROM (SELECT DISTINCT "user_id" FROM "old_samples" ORDER BY 1) AS c WHERE u."id" = c."user_id";
  ELSE
    UPDATE "users" AS u SET "samples_version" = u."samples_version" + 1
      FROM (SELECT "user_id" FROM "new_samples" UNION SELECT "user_id" FROM "old_samples" ORDER BY 1) AS c
      WHERE u."id" = c."user_id";
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION "samples_version_on_files"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    UPDATE "users" AS u SET "samples_version" = u."samples_version" + 1
      FROM (SELECT DISTINCT (SELECT s."user_id" FROM "samples" s WHERE s."id" = f."sample_id") AS "user_id"
            FROM "new_files" f ORDER BY 1) AS c
      WHERE u."id" = c."user_id";
  ELSIF TG_OP = 'DELETE' THEN
    UPDATE "users" AS u SET "samples_version" = u."samples_version" + 1
      FROM (SELECT DISTINCT (SELECT s."user_id" FROM "samples" s WHERE s."id" = f."sample_id") AS "user_id"
            FROM "old_files" f ORDER BY 1) AS c
      WHERE u."id" = c."user_id";
  ELSE
    UPDATE "users" AS u SET "samples_version" = u."samples_version" + 1
      FROM (SELECT DISTINCT (SELECT s."user_id" FROM "samples" s WHERE s."id" = f."sample_id") AS "user_id"
            FROM (SELECT "sample_id" FROM "new_files" UNION SELECT "sample_id" FROM "old_files") f ORDER BY 1) AS c
      WHERE u."id" = c."user_id";
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION "samples_version_on_truncate"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "users" SET "samples_version" = "samples_version" + 1;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- PostgreSQL fires a table's triggers in the order of their names: "samples_0_…" come before
-- samples_bucket_* (migration 0001), whose upsert takes the one row lock every insert shares; that
-- lock is then held only from the last trigger to the commit.
CREATE TRIGGER "samples_0_version_insert" AFTER INSERT ON "samples"
  REFERENCING NEW TABLE AS "new_samples" FOR EACH STATEMENT EXECUTE FUNCTION "samples_version_on_samples"();
--> statement-breakpoint
CREATE TRIGGER "samples_0_version_update" AFTER UPDATE ON "samples"
  REFERENCING OLD TABLE AS "old_samples" NEW TABLE AS "new_samples"
  FOR EACH STATEMENT EXECUTE FUNCTION "samples_version_on_samples"();
--> statement-breakpoint
CREATE TRIGGER "samples_0_version_delete" AFTER DELETE ON "samples"
  REFERENCING OLD TABLE AS "old_samples" FOR EACH STATEMENT EXECUTE FUNCTION "samples_version_on_samples"();
--> statement-breakpoint
CREATE TRIGGER "samples_0_version_truncate" AFTER TRUNCATE ON "samples"
  FOR EACH STATEMENT EXECUTE FUNCTION "samples_version_on_truncate"();
--> statement-breakpoint
CREATE TRIGGER "samples_version_files_insert" AFTER INSERT ON "sample_files"
  REFERENCING NEW TABLE AS "new_files" FOR EACH STATEMENT EXECUTE FUNCTION "samples_version_on_files"();
--> statement-breakpoint
CREATE TRIGGER "samples_version_files_update" AFTER UPDATE ON "sample_files"
  REFERENCING OLD TABLE AS "old_files" NEW TABLE AS "new_files"
  FOR EACH STATEMENT EXECUTE FUNCTION "samples_version_on_files"();
--> statement-breakpoint
CREATE TRIGGER "samples_version_files_delete" AFTER DELETE ON "sample_files"
  REFERENCING OLD TABLE AS "old_files" FOR EACH STATEMENT EXECUTE FUNCTION "samples_version_on_files"();
--> statement-breakpoint
CREATE TRIGGER "samples_version_files_truncate" AFTER TRUNCATE ON "sample_files"
  FOR EACH STATEMENT EXECUTE FUNCTION "samples_version_on_truncate"();
