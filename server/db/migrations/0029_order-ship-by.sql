-- The date an order must ship by (common/domain/ship-by.ts), written once when the order is made so the
-- promise on the buyer's order page never moves; orders made before it stay null (shown without a date).
ALTER TABLE "orders" ADD COLUMN "ship_by" date;
