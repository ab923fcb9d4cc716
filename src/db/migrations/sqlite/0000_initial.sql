CREATE TABLE `auth_session` (
	`id` text PRIMARY KEY NOT NULL,
	`member_id` integer NOT NULL,
	`refresh_jti` text NOT NULL,
	`revoked_at` integer,
	`revoked_reason` text,
	`created_at` integer NOT NULL,
	`expires_at` integer NOT NULL,
	FOREIGN KEY (`member_id`) REFERENCES `member`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `auth_session_member_idx` ON `auth_session` (`member_id`);--> statement-breakpoint
CREATE TABLE `chat_message` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`chat_room_id` integer NOT NULL,
	`message_type` text NOT NULL,
	`content` text NOT NULL,
	`content_type` text DEFAULT 'TEXT' NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`chat_room_id`) REFERENCES `chat_room`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `chat_message_room_idx` ON `chat_message` (`chat_room_id`,`id`);--> statement-breakpoint
CREATE TABLE `chat_room` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`member_id` integer NOT NULL,
	`trip_plan_id` integer NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`member_id`) REFERENCES `member`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`trip_plan_id`) REFERENCES `trip_plan`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `chat_room_trip_plan_idx` ON `chat_room` (`trip_plan_id`);--> statement-breakpoint
CREATE INDEX `chat_room_member_idx` ON `chat_room` (`member_id`);--> statement-breakpoint
CREATE TABLE `daily_plan` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`trip_plan_id` integer NOT NULL,
	`day_number` integer NOT NULL,
	`date` text NOT NULL,
	`title` text NOT NULL,
	`description` text NOT NULL,
	FOREIGN KEY (`trip_plan_id`) REFERENCES `trip_plan`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `daily_plan_trip_day_idx` ON `daily_plan` (`trip_plan_id`,`day_number`);--> statement-breakpoint
CREATE TABLE `member` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`email` text NOT NULL,
	`name` text NOT NULL,
	`image_url` text,
	`provider` text NOT NULL,
	`role` text DEFAULT 'MEMBER' NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `member_email_unique` ON `member` (`email`);--> statement-breakpoint
CREATE TABLE `place` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`key` text NOT NULL,
	`region` text NOT NULL,
	`name` text NOT NULL,
	`name_ko` text,
	`address` text NOT NULL,
	`latitude` real NOT NULL,
	`longitude` real NOT NULL,
	`description` text NOT NULL,
	`image_url` text,
	`operating_hours` text,
	`holiday_info` text,
	`is_must_visit` integer NOT NULL,
	`themes` text NOT NULL,
	`kind` text NOT NULL,
	`visit_minutes` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `place_key_unique` ON `place` (`key`);--> statement-breakpoint
CREATE INDEX `place_region_idx` ON `place` (`region`);--> statement-breakpoint
CREATE TABLE `ai_prompt_template` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`prompt_type` text NOT NULL,
	`agent_type` text NOT NULL,
	`prompt` text NOT NULL,
	`is_active` integer NOT NULL,
	`description` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `ai_prompt_template_created_idx` ON `ai_prompt_template` (`created_at`,`id`);--> statement-breakpoint
CREATE UNIQUE INDEX `ai_prompt_template_active_idx` ON `ai_prompt_template` (`prompt_type`,`agent_type`) WHERE "ai_prompt_template"."is_active" = 1;--> statement-breakpoint
CREATE TABLE `scheduled_place` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`daily_plan_id` integer NOT NULL,
	`visit_order` integer NOT NULL,
	`category` text NOT NULL,
	`travel_time` integer,
	`travel_distance` integer,
	`transportation` text NOT NULL,
	`place_id` integer NOT NULL,
	FOREIGN KEY (`daily_plan_id`) REFERENCES `daily_plan`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`place_id`) REFERENCES `place`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `scheduled_place_day_order_idx` ON `scheduled_place` (`daily_plan_id`,`visit_order`);--> statement-breakpoint
CREATE TABLE `trip_plan` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`member_id` integer NOT NULL,
	`title` text NOT NULL,
	`region` text NOT NULL,
	`start_date` text NOT NULL,
	`end_date` text NOT NULL,
	`duration` integer NOT NULL,
	`people_count` integer NOT NULL,
	`themes` text NOT NULL,
	`transportation` text NOT NULL,
	`generation_status` text NOT NULL,
	`failure_code` text,
	`image_url` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`member_id`) REFERENCES `member`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `trip_plan_member_created_idx` ON `trip_plan` (`member_id`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `trip_plan_member_start_idx` ON `trip_plan` (`member_id`,`start_date`,`id`);--> statement-breakpoint
CREATE INDEX `trip_plan_status_idx` ON `trip_plan` (`generation_status`);