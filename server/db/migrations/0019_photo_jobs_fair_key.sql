ALTER TABLE "jobs" ADD COLUMN "fair_key" varchar(255);--> statement-breakpoint
CREATE INDEX "jobs_fair_idx" ON "jobs" USING btree ("queue","fair_key","updated_at");