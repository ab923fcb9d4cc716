CREATE TABLE "plan_log_start" (
	"stream" text PRIMARY KEY NOT NULL,
	"run" integer NOT NULL
);
