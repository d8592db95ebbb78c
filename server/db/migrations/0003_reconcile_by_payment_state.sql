ALTER TABLE "checkouts" ADD COLUMN "payment_check_at" timestamp with time zone DEFAULT now();--> statement-breakpoint
CREATE INDEX "checkouts_payment_check_idx" ON "checkouts" USING btree ("payment_check_at") WHERE "checkouts"."payment_check_at" is not null and "checkouts"."payment_intent_id" is not null;--> statement-breakpoint
-- Settled payments are never asked about again.
UPDATE "checkouts" SET "payment_check_at" = NULL WHERE "status" IN ('fulfilled', 'refunded');