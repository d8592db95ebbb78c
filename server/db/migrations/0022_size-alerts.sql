-- Notify me per size (ADR 015, "Returns, refunds and restock reservations"): a restock signup may name the
-- size it waits for ("tell me if an M comes back"; null: any size), and a reservation names the size of
-- the piece it keeps (null: a piece of the whole edition, as before sizes). A size the owner removes from
-- the run (only possible while it has no piece held or sold) turns its waiters into any-size waiters.
ALTER TABLE "product_alerts" ADD COLUMN "variant_id" uuid REFERENCES "product_variants"("id") ON DELETE SET NULL;
--> statement-breakpoint
ALTER TABLE "product_alerts" ADD COLUMN "reserved_variant_id" uuid REFERENCES "product_variants"("id") ON DELETE SET NULL;
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "product_alerts_variant_idx" ON "product_alerts" ("variant_id") WHERE "variant_id" IS NOT NULL;
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "product_alerts_reserved_variant_idx" ON "product_alerts" ("reserved_variant_id") WHERE "reserved_variant_id" IS NOT NULL;
