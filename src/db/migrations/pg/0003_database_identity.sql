CREATE TABLE "database_identity" (
	"id" text PRIMARY KEY NOT NULL
);
--> statement-breakpoint
INSERT INTO "database_identity" ("id") VALUES (substr(md5(random()::text || clock_timestamp()::text), 1, 24));
