-- The verification log keeps one index: its key (code, id), which serves every read (one code's
-- entries, newest first). The former key on id alone served no read and cost every write, and every
-- public verification writes a row.
DROP INDEX "verification_log_code_idx";--> statement-breakpoint
ALTER TABLE "verification_log" DROP CONSTRAINT "verification_log_pkey";--> statement-breakpoint
ALTER TABLE "verification_log" ADD CONSTRAINT "verification_log_pkey" PRIMARY KEY("code","id");
