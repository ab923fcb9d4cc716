ALTER TABLE `trip_plan` ADD `gen_run` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `trip_plan` ADD `gen_attempt` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `trip_plan` ADD `gen_owner` text;--> statement-breakpoint
ALTER TABLE `trip_plan` ADD `gen_lease_until` integer;--> statement-breakpoint
ALTER TABLE `trip_plan` ADD `gen_heartbeat_at` integer;--> statement-breakpoint
CREATE INDEX `trip_plan_generating_idx` ON `trip_plan` (`generation_status`,`gen_lease_until`) WHERE "trip_plan"."generation_status" = 'GENERATING';