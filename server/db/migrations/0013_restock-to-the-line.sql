-- Claim links get a token of their own (never the unsubscribe token), bound to the first browser that uses it
-- (ADR 011, amended). A reservation already mailed keeps working for the rest of its window: its link carries
-- the old token, so that one row's claim token is set to it; every reservation made from now on gets a new one.
ALTER TABLE "product_alerts" ADD COLUMN "claim_token" text;--> statement-breakpoint
ALTER TABLE "product_alerts" ADD COLUMN "claimed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "product_alerts" ADD CONSTRAINT "product_alerts_claim_token_unique" UNIQUE("claim_token");--> statement-breakpoint
UPDATE "product_alerts" SET "claim_token" = "token" WHERE "kind" = 'restock' AND "reserved_until" > now() AND "unsubscribed_at" IS NULL;
