CREATE TABLE "quotes" (
	"id" serial PRIMARY KEY NOT NULL,
	"sample_id" integer NOT NULL,
	"status" varchar(20) DEFAULT 'sent' NOT NULL,
	"lines" jsonb NOT NULL,
	"total_minor" bigint NOT NULL,
	"currency" varchar(3) NOT NULL,
	"valid_until" date NOT NULL,
	"note" text,
	"sent_by" integer,
	"sent_at" timestamp with time zone DEFAULT now() NOT NULL,
	"answered_at" timestamp with time zone,
	"decline_reason" text,
	"withdrawn_at" timestamp with time zone,
	"paid_at" timestamp with time zone,
	"paid_reference" varchar(255),
	"paid_by" integer
);
--> statement-breakpoint
ALTER TABLE "lab_settings" ADD COLUMN "prices_minor" jsonb;--> statement-breakpoint
ALTER TABLE "lab_settings" ADD COLUMN "urgent_surcharge_percent" integer DEFAULT 50 NOT NULL;--> statement-breakpoint
ALTER TABLE "lab_settings" ADD COLUMN "currency" varchar(3) DEFAULT 'EUR' NOT NULL;--> statement-breakpoint
ALTER TABLE "quotes" ADD CONSTRAINT "quotes_sample_id_samples_id_fk" FOREIGN KEY ("sample_id") REFERENCES "public"."samples"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "quotes" ADD CONSTRAINT "quotes_sent_by_users_id_fk" FOREIGN KEY ("sent_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "quotes" ADD CONSTRAINT "quotes_paid_by_users_id_fk" FOREIGN KEY ("paid_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "quotes_sample_idx" ON "quotes" USING btree ("sample_id","id" DESC NULLS LAST);--> statement-breakpoint
CREATE UNIQUE INDEX "quotes_one_open_per_sample" ON "quotes" USING btree ("sample_id") WHERE "quotes"."status" in ('sent', 'accepted');