CREATE TABLE "spent_pow_challenges" (
	"signature" text PRIMARY KEY NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "spent_pow_challenges_expires_at_idx" ON "spent_pow_challenges" USING btree ("expires_at");