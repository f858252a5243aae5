DROP INDEX "jobs_fair_idx";--> statement-breakpoint
CREATE INDEX "jobs_served_fair_idx" ON "jobs" USING btree ("queue","fair_key","updated_at") WHERE "jobs"."state" <> 'pending';