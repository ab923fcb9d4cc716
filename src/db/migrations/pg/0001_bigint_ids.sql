ALTER TABLE "auth_session" ALTER COLUMN "member_id" SET DATA TYPE bigint;--> statement-breakpoint
ALTER TABLE "chat_message" ALTER COLUMN "id" SET DATA TYPE bigint;--> statement-breakpoint
ALTER TABLE "chat_message" ALTER COLUMN "id" SET MAXVALUE 9223372036854775807;--> statement-breakpoint
ALTER TABLE "chat_message" ALTER COLUMN "chat_room_id" SET DATA TYPE bigint;--> statement-breakpoint
ALTER TABLE "chat_room" ALTER COLUMN "id" SET DATA TYPE bigint;--> statement-breakpoint
ALTER TABLE "chat_room" ALTER COLUMN "id" SET MAXVALUE 9223372036854775807;--> statement-breakpoint
ALTER TABLE "chat_room" ALTER COLUMN "member_id" SET DATA TYPE bigint;--> statement-breakpoint
ALTER TABLE "chat_room" ALTER COLUMN "trip_plan_id" SET DATA TYPE bigint;--> statement-breakpoint
ALTER TABLE "daily_plan" ALTER COLUMN "id" SET DATA TYPE bigint;--> statement-breakpoint
ALTER TABLE "daily_plan" ALTER COLUMN "id" SET MAXVALUE 9223372036854775807;--> statement-breakpoint
ALTER TABLE "daily_plan" ALTER COLUMN "trip_plan_id" SET DATA TYPE bigint;--> statement-breakpoint
ALTER TABLE "member" ALTER COLUMN "id" SET DATA TYPE bigint;--> statement-breakpoint
ALTER TABLE "member" ALTER COLUMN "id" SET MAXVALUE 9223372036854775807;--> statement-breakpoint
ALTER TABLE "place" ALTER COLUMN "id" SET DATA TYPE bigint;--> statement-breakpoint
ALTER TABLE "place" ALTER COLUMN "id" SET MAXVALUE 9223372036854775807;--> statement-breakpoint
ALTER TABLE "ai_prompt_template" ALTER COLUMN "id" SET DATA TYPE bigint;--> statement-breakpoint
ALTER TABLE "ai_prompt_template" ALTER COLUMN "id" SET MAXVALUE 9223372036854775807;--> statement-breakpoint
ALTER TABLE "scheduled_place" ALTER COLUMN "id" SET DATA TYPE bigint;--> statement-breakpoint
ALTER TABLE "scheduled_place" ALTER COLUMN "id" SET MAXVALUE 9223372036854775807;--> statement-breakpoint
ALTER TABLE "scheduled_place" ALTER COLUMN "daily_plan_id" SET DATA TYPE bigint;--> statement-breakpoint
ALTER TABLE "scheduled_place" ALTER COLUMN "place_id" SET DATA TYPE bigint;--> statement-breakpoint
ALTER TABLE "storage_probe" ALTER COLUMN "id" SET DATA TYPE bigint;--> statement-breakpoint
ALTER TABLE "storage_probe" ALTER COLUMN "id" SET MAXVALUE 9223372036854775807;--> statement-breakpoint
ALTER TABLE "trip_plan" ALTER COLUMN "id" SET DATA TYPE bigint;--> statement-breakpoint
ALTER TABLE "trip_plan" ALTER COLUMN "id" SET MAXVALUE 9223372036854775807;--> statement-breakpoint
ALTER TABLE "trip_plan" ALTER COLUMN "member_id" SET DATA TYPE bigint;