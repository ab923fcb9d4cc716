CREATE TABLE `database_identity` (
	`id` text PRIMARY KEY NOT NULL
);
--> statement-breakpoint
INSERT INTO `database_identity` (`id`) VALUES (lower(hex(randomblob(12))));
