ALTER TABLE "auth_session" ADD COLUMN "previous_refresh_jti" text;--> statement-breakpoint
ALTER TABLE "auth_session" ADD COLUMN "rotated_at" bigint;