CREATE TABLE `oidc_pending_login` (
	`id` text PRIMARY KEY NOT NULL,
	`state` text NOT NULL,
	`nonce` text NOT NULL,
	`code_verifier` text NOT NULL,
	`return_to` text NOT NULL,
	`created_at` integer NOT NULL,
	`expires_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `oidc_pending_login_expires_idx` ON `oidc_pending_login` (`expires_at`);--> statement-breakpoint
CREATE TABLE `oidc_sign_in_code` (
	`id` text PRIMARY KEY NOT NULL,
	`session_id` text NOT NULL,
	`created_at` integer NOT NULL,
	`expires_at` integer NOT NULL,
	FOREIGN KEY (`session_id`) REFERENCES `auth_session`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `oidc_sign_in_code_expires_idx` ON `oidc_sign_in_code` (`expires_at`);--> statement-breakpoint
DROP INDEX `member_email_unique`;--> statement-breakpoint
ALTER TABLE `member` ADD `oidc_issuer` text;--> statement-breakpoint
ALTER TABLE `member` ADD `oidc_subject` text;--> statement-breakpoint
CREATE UNIQUE INDEX `member_local_email_unique` ON `member` (`email`) WHERE oidc_subject IS NULL;--> statement-breakpoint
CREATE UNIQUE INDEX `member_oidc_identity_unique` ON `member` (`oidc_issuer`,`oidc_subject`);