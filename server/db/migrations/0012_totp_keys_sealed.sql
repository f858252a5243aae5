-- Authenticator keys are stored sealed (AES-256-GCM with TOTP_KEY, modules/accounts/totp-vault.ts):
-- `v1.` and 80 characters of base64url instead of the 32-character base32 key. Keys stored before
-- this are sealed by the app at start-up, which needs the key the database never holds.
ALTER TABLE "users" ALTER COLUMN "totp_secret" SET DATA TYPE varchar(128);--> statement-breakpoint
ALTER TABLE "users" ALTER COLUMN "totp_pending_secret" SET DATA TYPE varchar(128);