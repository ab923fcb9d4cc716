CREATE TABLE "chat_pending_message" (
	"message_id" bigint NOT NULL,
	"chat_room_id" bigint NOT NULL,
	"scheduled_place_id" bigint,
	CONSTRAINT "chat_pending_message_message_id_pk" PRIMARY KEY("message_id")
);
--> statement-breakpoint
ALTER TABLE "chat_room" ADD COLUMN "turn_token" text;--> statement-breakpoint
ALTER TABLE "chat_room" ADD COLUMN "turn_until" bigint;--> statement-breakpoint
ALTER TABLE "chat_pending_message" ADD CONSTRAINT "chat_pending_message_message_id_chat_message_id_fk" FOREIGN KEY ("message_id") REFERENCES "public"."chat_message"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chat_pending_message" ADD CONSTRAINT "chat_pending_message_chat_room_id_chat_room_id_fk" FOREIGN KEY ("chat_room_id") REFERENCES "public"."chat_room"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "chat_pending_message_room_idx" ON "chat_pending_message" USING btree ("chat_room_id","message_id");