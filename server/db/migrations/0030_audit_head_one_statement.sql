ALTER TABLE "audit_chain_head" ADD COLUMN "prev_hash" char(64);--> statement-breakpoint
ALTER TABLE "audit_chain_head" ADD COLUMN "last_at" varchar(24);