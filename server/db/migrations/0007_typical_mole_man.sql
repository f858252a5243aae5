ALTER TABLE "samples" ADD COLUMN "quote_status" varchar(20);--> statement-breakpoint
ALTER TABLE "samples" ADD COLUMN "quote_valid_until" date;--> statement-breakpoint
ALTER TABLE "samples" ADD COLUMN "quote_accepted_at" timestamp with time zone;