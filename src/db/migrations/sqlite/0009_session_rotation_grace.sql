ALTER TABLE `auth_session` ADD `previous_refresh_jti` text;--> statement-breakpoint
ALTER TABLE `auth_session` ADD `rotated_at` integer;