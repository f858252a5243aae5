-- Account hardening, second round (docs/decisions/0020-account-hardening-two.md).
-- Stored mails keep their live link tokens sealed beside them (server/mail/live-tokens.ts).
ALTER TABLE "mail_outbox" ADD COLUMN "sealed_tokens" text;--> statement-breakpoint
-- Mails stored before: their link tokens are redacted (a mail still waiting then carries a dead link:
-- its owner asks for a new one).
UPDATE "mail_outbox" SET
  "html" = regexp_replace("html", '([?&](amp;)?token=)[A-Za-z0-9._~%-]{16,}', '\1REDACTED', 'g'),
  "text" = regexp_replace("text", '([?&](amp;)?token=)[A-Za-z0-9._~%-]{16,}', '\1REDACTED', 'g'),
  "headers" = regexp_replace("headers"::text, '([?&](amp;)?token=)[A-Za-z0-9._~%-]{16,}', '\1REDACTED', 'g')::jsonb
WHERE "html" ~ 'token=' OR "text" ~ 'token=' OR "headers"::text ~ 'token=';--> statement-breakpoint
-- Share links keep only the SHA-256 of their token (and its last 4 characters for the owner's list):
-- the existing links are converted in place and keep working.
ALTER TABLE "report_share_links" ADD COLUMN "token_hash" char(64);--> statement-breakpoint
ALTER TABLE "report_share_links" ADD COLUMN "token_hint" varchar(8);--> statement-breakpoint
UPDATE "report_share_links" SET "token_hash" = encode(sha256(convert_to("token", 'UTF8')), 'hex'), "token_hint" = right("token", 4);--> statement-breakpoint
ALTER TABLE "report_share_links" ALTER COLUMN "token_hash" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "report_share_links" ALTER COLUMN "token_hint" SET NOT NULL;--> statement-breakpoint
DROP INDEX IF EXISTS "report_share_links_token_unique";--> statement-breakpoint
ALTER TABLE "report_share_links" DROP COLUMN "token";--> statement-breakpoint
CREATE UNIQUE INDEX "report_share_links_token_hash_unique" ON "report_share_links" USING btree ("token_hash");
