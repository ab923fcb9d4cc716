CREATE TABLE `storage_probe` (
	`id` integer PRIMARY KEY NOT NULL,
	`pad` blob NOT NULL
);
