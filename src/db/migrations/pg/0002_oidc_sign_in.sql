CREATE TABLE "oidc_pending_login" (
	"id" text PRIMARY KEY NOT NULL,
	"state" text NOT NULL,
	"nonce" text NOT NULL,
	"code_verifier" text NOT NULL,
	"return_to" text NOT NULL,
	"created_at" bigint NOT NULL,
	"expires_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "oidc_sign_in_code" (
	"id" text PRIMARY KEY NOT NULL,
	"session_id" text NOT NULL,
	"created_at" bigint NOT NULL,
	"expires_at" bigint NOT NULL
);
--> statement-breakpoint
ALTER TABLE "member" DROP CONSTRAINT "member_email_unique";--> statement-breakpoint
ALTER TABLE "member" ADD COLUMN "oidc_issuer" text;--> statement-breakpoint
ALTER TABLE "member" ADD COLUMN "oidc_subject" text;--> statement-breakpoint
ALTER TABLE "oidc_sign_in_code" ADD CONSTRAINT "oidc_sign_in_code_session_id_auth_session_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."auth_session"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "oidc_pending_login_expires_idx" ON "oidc_pending_login" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "oidc_sign_in_code_expires_idx" ON "oidc_sign_in_code" USING btree ("expires_at");--> statement-breakpoint
CREATE UNIQUE INDEX "member_local_email_unique" ON "member" USING btree ("email") WHERE oidc_subject IS NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "member_oidc_identity_unique" ON "member" USING btree ("oidc_issuer","oidc_subject");