CREATE TABLE "report_review_decisions" (
	"id" serial PRIMARY KEY NOT NULL,
	"sample_id" integer NOT NULL,
	"report_code" varchar(8) NOT NULL,
	"revision" integer NOT NULL,
	"decision" varchar(20) NOT NULL,
	"reviewer_id" integer,
	"author_id" integer,
	"submitted_at" timestamp with time zone,
	"decided_at" timestamp with time zone DEFAULT now() NOT NULL,
	"comment" text
);
--> statement-breakpoint
ALTER TABLE "report_review_decisions" ADD CONSTRAINT "report_review_decisions_sample_id_samples_id_fk" FOREIGN KEY ("sample_id") REFERENCES "public"."samples"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_review_decisions" ADD CONSTRAINT "report_review_decisions_reviewer_id_users_id_fk" FOREIGN KEY ("reviewer_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_review_decisions" ADD CONSTRAINT "report_review_decisions_author_id_users_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "report_review_decisions_sample_idx" ON "report_review_decisions" USING btree ("sample_id","decided_at");--> statement-breakpoint
-- The decisions made before this table existed, as far as the revisions still tell them.
INSERT INTO "report_review_decisions" ("sample_id", "report_code", "revision", "decision", "reviewer_id", "author_id", "submitted_at", "decided_at", "comment")
SELECT "sample_id", "report_code", "revision", CASE WHEN "state" = 'returned' THEN 'returned' ELSE 'approved' END, "reviewed_by", "issued_by", NULL, "reviewed_at", "review_comment"
FROM "report_revisions" WHERE "reviewed_by" IS NOT NULL AND "reviewed_at" IS NOT NULL;
