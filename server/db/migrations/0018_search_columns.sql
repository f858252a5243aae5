DROP INDEX "samples_submission_date_idx";--> statement-breakpoint
ALTER TABLE "samples" ADD COLUMN "search_text" text GENERATED ALWAYS AS (vl_sample_search_text(item_name, submitter_name, submitter_email, client_name, representative_name, representative_email, report_code)) STORED;--> statement-breakpoint
ALTER TABLE "samples" ADD COLUMN "expected_completion" date GENERATED ALWAYS AS (vl_expected_completion(submission_date, quote_status, quote_accepted_at, urgency_level)) STORED;--> statement-breakpoint
CREATE INDEX "samples_search_trgm_idx" ON "samples" USING gin ("search_text" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "samples_expected_idx" ON "samples" USING btree ("expected_completion","id");--> statement-breakpoint
CREATE INDEX "samples_last_updated_idx" ON "samples" USING btree ("last_updated","id");--> statement-breakpoint
CREATE INDEX "samples_submitted_id_idx" ON "samples" USING btree ("submission_date","id");