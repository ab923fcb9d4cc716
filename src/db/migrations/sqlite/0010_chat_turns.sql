CREATE TABLE `chat_pending_message` (
	`message_id` integer PRIMARY KEY NOT NULL,
	`chat_room_id` integer NOT NULL,
	`scheduled_place_id` integer,
	FOREIGN KEY (`message_id`) REFERENCES `chat_message`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`chat_room_id`) REFERENCES `chat_room`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `chat_pending_message_room_idx` ON `chat_pending_message` (`chat_room_id`,`message_id`);--> statement-breakpoint
ALTER TABLE `chat_room` ADD `turn_token` text;--> statement-breakpoint
ALTER TABLE `chat_room` ADD `turn_until` integer;