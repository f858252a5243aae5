ALTER TABLE "lab_settings" ADD COLUMN "require_review" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "report_revisions" ADD COLUMN "elements" jsonb;