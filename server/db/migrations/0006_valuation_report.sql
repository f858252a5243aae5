CREATE TABLE "report_share_links" (
	"id" serial PRIMARY KEY NOT NULL,
	"sample_id" integer NOT NULL,
	"token" varchar(64) NOT NULL,
	"label" varchar(255),
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"revoked_at" timestamp with time zone
);
--> statement-breakpoint
DROP INDEX "verification_log_code_idx";--> statement-breakpoint
ALTER TABLE "report_revisions" ADD COLUMN "content" jsonb;--> statement-breakpoint
ALTER TABLE "report_revisions" ADD COLUMN "state" varchar(20) DEFAULT 'issued' NOT NULL;--> statement-breakpoint
ALTER TABLE "report_revisions" ADD COLUMN "reviewed_by" integer;--> statement-breakpoint
ALTER TABLE "report_revisions" ADD COLUMN "reviewed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "report_revisions" ADD COLUMN "review_comment" text;--> statement-breakpoint
ALTER TABLE "verification_log" ADD COLUMN "share_link_id" integer;--> statement-breakpoint
ALTER TABLE "report_share_links" ADD CONSTRAINT "report_share_links_sample_id_samples_id_fk" FOREIGN KEY ("sample_id") REFERENCES "public"."samples"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_share_links" ADD CONSTRAINT "report_share_links_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "report_share_links_token_unique" ON "report_share_links" USING btree ("token");--> statement-breakpoint
CREATE INDEX "report_share_links_sample_idx" ON "report_share_links" USING btree ("sample_id","id" DESC NULLS LAST);--> statement-breakpoint
ALTER TABLE "report_revisions" ADD CONSTRAINT "report_revisions_reviewed_by_users_id_fk" FOREIGN KEY ("reviewed_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "verification_log_code_idx" ON "verification_log" USING btree ("code","id" DESC NULLS LAST);