CREATE TABLE "sample_id_buckets" (
	"bucket" integer PRIMARY KEY NOT NULL,
	"rows" integer NOT NULL
);
--> statement-breakpoint
CREATE FUNCTION "sample_id_buckets_add"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "sample_id_buckets" AS b ("bucket", "rows")
    SELECT "id" / 1000, count(*)::int FROM "inserted_samples" GROUP BY 1 ORDER BY 1
  ON CONFLICT ("bucket") DO UPDATE SET "rows" = b."rows" + excluded."rows";
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION "sample_id_buckets_remove"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "sample_id_buckets" AS b SET "rows" = b."rows" - d."n"
    FROM (SELECT "id" / 1000 AS "bucket", count(*)::int AS "n" FROM "deleted_samples" GROUP BY 1) d
    WHERE b."bucket" = d."bucket";
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION "sample_id_buckets_clear"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "sample_id_buckets";
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "samples_bucket_insert" AFTER INSERT ON "samples"
  REFERENCING NEW TABLE AS "inserted_samples" FOR EACH STATEMENT EXECUTE FUNCTION "sample_id_buckets_add"();
--> statement-breakpoint
CREATE TRIGGER "samples_bucket_delete" AFTER DELETE ON "samples"
  REFERENCING OLD TABLE AS "deleted_samples" FOR EACH STATEMENT EXECUTE FUNCTION "sample_id_buckets_remove"();
--> statement-breakpoint
CREATE TRIGGER "samples_bucket_truncate" AFTER TRUNCATE ON "samples"
  FOR EACH STATEMENT EXECUTE FUNCTION "sample_id_buckets_clear"();
--> statement-breakpoint
INSERT INTO "sample_id_buckets" ("bucket", "rows")
  SELECT "id" / 1000, count(*)::int FROM "samples" GROUP BY 1;
