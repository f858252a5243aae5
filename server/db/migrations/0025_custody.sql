CREATE TABLE "custody_events" (
	"id" serial PRIMARY KEY NOT NULL,
	"sample_id" integer NOT NULL,
	"event" varchar(30) NOT NULL,
	"state" varchar(30) NOT NULL,
	"location_id" integer,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"by_user_id" integer,
	"note" text,
	"details" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "storage_locations" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" varchar(100) NOT NULL,
	"description" varchar(500),
	"retired_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "lab_settings" ADD COLUMN "flag_held_days_after_completion" integer DEFAULT 14 NOT NULL;--> statement-breakpoint
ALTER TABLE "sample_files" ADD COLUMN "custody_event_id" integer;--> statement-breakpoint
ALTER TABLE "samples" ADD COLUMN "custody_state" varchar(30) DEFAULT 'awaiting-arrival' NOT NULL;--> statement-breakpoint
ALTER TABLE "samples" ADD COLUMN "custody_location_id" integer;--> statement-breakpoint
ALTER TABLE "samples" ADD COLUMN "custody_location_name" varchar(255);--> statement-breakpoint
ALTER TABLE "samples" ADD COLUMN "custody_since" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "samples" ADD COLUMN "declared_value_minor" bigint;--> statement-breakpoint
ALTER TABLE "samples" ADD COLUMN "declared_currency" varchar(3);--> statement-breakpoint
ALTER TABLE "custody_events" ADD CONSTRAINT "custody_events_sample_id_samples_id_fk" FOREIGN KEY ("sample_id") REFERENCES "public"."samples"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "custody_events" ADD CONSTRAINT "custody_events_location_id_storage_locations_id_fk" FOREIGN KEY ("location_id") REFERENCES "public"."storage_locations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "custody_events" ADD CONSTRAINT "custody_events_by_user_id_users_id_fk" FOREIGN KEY ("by_user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "custody_events_sample_idx" ON "custody_events" USING btree ("sample_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "storage_locations_name_unique" ON "storage_locations" USING btree (lower("name"));--> statement-breakpoint
ALTER TABLE "sample_files" ADD CONSTRAINT "sample_files_custody_event_id_custody_events_id_fk" FOREIGN KEY ("custody_event_id") REFERENCES "public"."custody_events"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "samples" ADD CONSTRAINT "samples_custody_location_id_storage_locations_id_fk" FOREIGN KEY ("custody_location_id") REFERENCES "public"."storage_locations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "samples_custody_state_idx" ON "samples" USING btree ("custody_state","id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "samples_custody_location_idx" ON "samples" USING btree ("custody_location_id") WHERE "samples"."custody_location_id" is not null;