ALTER TABLE "oidc_pending_login" ADD COLUMN "code_challenge" text;--> statement-breakpoint
ALTER TABLE "oidc_sign_in_code" ADD COLUMN "code_challenge" text;--> statement-breakpoint
ALTER TABLE "oidc_sign_in_code" ADD COLUMN "browser_key_hash" text DEFAULT '' NOT NULL;