ALTER TABLE `auth_session` ADD `role` text DEFAULT 'MEMBER' NOT NULL;--> statement-breakpoint
CREATE INDEX `auth_session_expires_idx` ON `auth_session` (`expires_at`);--> statement-breakpoint
CREATE INDEX `auth_session_revoked_idx` ON `auth_session` (`revoked_at`);--> statement-breakpoint
ALTER TABLE `member` DROP COLUMN `role`;