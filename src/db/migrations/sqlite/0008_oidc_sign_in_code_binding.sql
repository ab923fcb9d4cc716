ALTER TABLE `oidc_pending_login` ADD `code_challenge` text;--> statement-breakpoint
ALTER TABLE `oidc_sign_in_code` ADD `code_challenge` text;--> statement-breakpoint
ALTER TABLE `oidc_sign_in_code` ADD `browser_key_hash` text DEFAULT '' NOT NULL;