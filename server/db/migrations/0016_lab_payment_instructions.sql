ALTER TABLE "lab_settings" ADD COLUMN "payment_instructions" text;--> statement-breakpoint
ALTER TABLE "lab_settings" ADD COLUMN "payment_link" varchar(500);