ALTER TABLE "lab_settings" ADD COLUMN "certification_template" text;--> statement-breakpoint
ALTER TABLE "lab_settings" ADD COLUMN "limiting_conditions_template" text;--> statement-breakpoint
ALTER TABLE "lab_settings" ADD COLUMN "revalue_after_months" integer DEFAULT 36 NOT NULL;--> statement-breakpoint
ALTER TABLE "lab_settings" ADD COLUMN "tax_filing_window_months" integer DEFAULT 22 NOT NULL;--> statement-breakpoint
ALTER TABLE "samples" ADD COLUMN "revalue_by" date;--> statement-breakpoint
ALTER TABLE "samples" ADD COLUMN "revaluation_notice_for" date;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "qualifications" text;--> statement-breakpoint
CREATE INDEX "samples_revalue_by_idx" ON "samples" USING btree ("revalue_by");