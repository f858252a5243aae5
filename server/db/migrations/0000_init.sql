CREATE TABLE "contact_inquiries" (
	"id" serial PRIMARY KEY NOT NULL,
	"first_name" varchar(255) NOT NULL,
	"last_name" varchar(255) NOT NULL,
	"email" varchar(255) NOT NULL,
	"phone" varchar(255),
	"subject" varchar(255) NOT NULL,
	"message" text NOT NULL,
	"status" varchar(50) DEFAULT 'new' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "lab_settings" (
	"id" serial PRIMARY KEY NOT NULL,
	"lab_name" varchar(255),
	"address" varchar(255),
	"phone" varchar(255),
	"email" varchar(255),
	"website" varchar(255),
	"logo" varchar(255),
	"certification_number" varchar(255),
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "login_attempts" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"key" varchar(320) NOT NULL,
	"attempted_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "report_elements" (
	"id" serial PRIMARY KEY NOT NULL,
	"sample_id" integer NOT NULL,
	"element" varchar(255) NOT NULL,
	"percentage" numeric(5, 2) NOT NULL,
	"purity" varchar(255),
	"quality" varchar(50),
	"notes" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "report_revisions" (
	"id" serial PRIMARY KEY NOT NULL,
	"sample_id" integer NOT NULL,
	"report_code" varchar(8) NOT NULL,
	"revision" integer NOT NULL,
	"storage_key" varchar(255) NOT NULL,
	"sha256" char(64) NOT NULL,
	"byte_size" integer NOT NULL,
	"issued_at" timestamp with time zone DEFAULT now() NOT NULL,
	"issued_by" integer
);
--> statement-breakpoint
CREATE TABLE "sample_files" (
	"id" serial PRIMARY KEY NOT NULL,
	"sample_id" integer NOT NULL,
	"file_name" varchar(255) NOT NULL,
	"original_name" varchar(255) NOT NULL,
	"file_type" varchar(255) NOT NULL,
	"file_size" integer NOT NULL,
	"file_category" varchar(50) NOT NULL,
	"upload_date" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sample_status_history" (
	"id" serial PRIMARY KEY NOT NULL,
	"sample_id" integer NOT NULL,
	"status" varchar(50) NOT NULL,
	"comment" text,
	"updated_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "samples" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"submitter_name" varchar(255) NOT NULL,
	"submitter_email" varchar(255) NOT NULL,
	"submitter_phone" varchar(255),
	"submitter_country" varchar(255),
	"is_personal_submission" boolean DEFAULT true NOT NULL,
	"representative_email" varchar(255),
	"relationship_to_owner" varchar(255),
	"item_name" varchar(255) NOT NULL,
	"category" varchar(255) NOT NULL,
	"estimated_age" varchar(255),
	"description" text NOT NULL,
	"dimensions" varchar(255),
	"weight" varchar(255),
	"materials" varchar(255),
	"expert_valuation" boolean DEFAULT false NOT NULL,
	"authenticity_check" boolean DEFAULT false NOT NULL,
	"condition_assessment" boolean DEFAULT false NOT NULL,
	"provenance_research" boolean DEFAULT false NOT NULL,
	"purpose_of_valuation" varchar(255),
	"urgency_level" varchar(50) DEFAULT 'standard' NOT NULL,
	"estimated_value_range" varchar(255),
	"special_instructions" text,
	"is_representative" boolean DEFAULT false NOT NULL,
	"representative_name" varchar(255),
	"representative_relation" varchar(255),
	"client_name" varchar(255),
	"status" varchar(50) DEFAULT 'submitted' NOT NULL,
	"submission_date" timestamp with time zone DEFAULT now() NOT NULL,
	"last_updated" timestamp with time zone DEFAULT now() NOT NULL,
	"assigned_staff_id" integer,
	"report_generated" boolean DEFAULT false NOT NULL,
	"report_generated_at" timestamp with time zone,
	"report_generated_by" integer,
	"report_code" varchar(8),
	"report_revoked_at" timestamp with time zone,
	"report_revoked_reason" text,
	"report_revoked_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" serial PRIMARY KEY NOT NULL,
	"email" varchar(255) NOT NULL,
	"password_hash" varchar(255) NOT NULL,
	"first_name" varchar(255),
	"last_name" varchar(255),
	"phone" varchar(255),
	"profile_image_url" varchar(255),
	"role" varchar(50) DEFAULT 'user' NOT NULL,
	"staff_id" varchar(255),
	"signature" varchar(255),
	"is_active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "verification_log" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"code" varchar(64) NOT NULL,
	"result" varchar(50) NOT NULL,
	"network" varchar(64)
);
--> statement-breakpoint
ALTER TABLE "report_elements" ADD CONSTRAINT "report_elements_sample_id_samples_id_fk" FOREIGN KEY ("sample_id") REFERENCES "public"."samples"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_revisions" ADD CONSTRAINT "report_revisions_sample_id_samples_id_fk" FOREIGN KEY ("sample_id") REFERENCES "public"."samples"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_revisions" ADD CONSTRAINT "report_revisions_issued_by_users_id_fk" FOREIGN KEY ("issued_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sample_files" ADD CONSTRAINT "sample_files_sample_id_samples_id_fk" FOREIGN KEY ("sample_id") REFERENCES "public"."samples"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sample_status_history" ADD CONSTRAINT "sample_status_history_sample_id_samples_id_fk" FOREIGN KEY ("sample_id") REFERENCES "public"."samples"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sample_status_history" ADD CONSTRAINT "sample_status_history_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "samples" ADD CONSTRAINT "samples_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "samples" ADD CONSTRAINT "samples_assigned_staff_id_users_id_fk" FOREIGN KEY ("assigned_staff_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "samples" ADD CONSTRAINT "samples_report_generated_by_users_id_fk" FOREIGN KEY ("report_generated_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "samples" ADD CONSTRAINT "samples_report_revoked_by_users_id_fk" FOREIGN KEY ("report_revoked_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "contact_inquiries_status_idx" ON "contact_inquiries" USING btree ("status");--> statement-breakpoint
CREATE INDEX "login_attempts_key_idx" ON "login_attempts" USING btree ("key","attempted_at");--> statement-breakpoint
CREATE UNIQUE INDEX "report_elements_sample_element_unique" ON "report_elements" USING btree ("sample_id",lower("element"));--> statement-breakpoint
CREATE UNIQUE INDEX "report_revisions_code_revision_unique" ON "report_revisions" USING btree ("report_code","revision");--> statement-breakpoint
CREATE INDEX "report_revisions_sha256_idx" ON "report_revisions" USING btree ("sha256");--> statement-breakpoint
CREATE INDEX "report_revisions_sample_idx" ON "report_revisions" USING btree ("sample_id");--> statement-breakpoint
CREATE UNIQUE INDEX "sample_files_file_name_unique" ON "sample_files" USING btree ("file_name");--> statement-breakpoint
CREATE INDEX "sample_files_sample_idx" ON "sample_files" USING btree ("sample_id");--> statement-breakpoint
CREATE INDEX "sample_status_history_sample_idx" ON "sample_status_history" USING btree ("sample_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "samples_report_code_unique" ON "samples" USING btree ("report_code");--> statement-breakpoint
CREATE INDEX "samples_user_id_idx" ON "samples" USING btree ("user_id","id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "samples_assigned_staff_idx" ON "samples" USING btree ("assigned_staff_id","id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "samples_status_idx" ON "samples" USING btree ("status");--> statement-breakpoint
CREATE INDEX "samples_submission_date_idx" ON "samples" USING btree ("submission_date");--> statement-breakpoint
CREATE UNIQUE INDEX "users_email_unique" ON "users" USING btree ("email");--> statement-breakpoint
CREATE UNIQUE INDEX "users_staff_id_unique" ON "users" USING btree ("staff_id");--> statement-breakpoint
CREATE INDEX "users_role_idx" ON "users" USING btree ("role");--> statement-breakpoint
CREATE INDEX "verification_log_code_idx" ON "verification_log" USING btree ("code");