-- Money in integer minor units (cents) in the database as in the code (docs/decisions/016-money-minor-units.md).
-- Every numeric(10,2) dollar column becomes a bigint of cents named *_cents, so a reader knows the unit:
-- bigint because the largest price the admin accepts (99999999.99) is 9999999999 cents, beyond integer.
-- round(x * 100) is exact for numeric(10,2) (at most two decimals), so no amount or total changes.
-- checkouts.amount_cents (already cents) is widened to bigint for the same reason.
ALTER TABLE "products"
  ALTER COLUMN "price" SET DATA TYPE bigint USING round("price" * 100)::bigint,
  ALTER COLUMN "sale_price" SET DATA TYPE bigint USING round("sale_price" * 100)::bigint;--> statement-breakpoint
ALTER TABLE "products" RENAME COLUMN "price" TO "price_cents";--> statement-breakpoint
ALTER TABLE "products" RENAME COLUMN "sale_price" TO "sale_price_cents";--> statement-breakpoint
ALTER TABLE "products"
  ADD CONSTRAINT "products_price_cents_non_negative" CHECK ("price_cents" >= 0),
  ADD CONSTRAINT "products_sale_price_cents_non_negative" CHECK ("sale_price_cents" >= 0);--> statement-breakpoint
ALTER TABLE "checkouts"
  ALTER COLUMN "subtotal" SET DATA TYPE bigint USING round("subtotal" * 100)::bigint,
  ALTER COLUMN "discount_amount" DROP DEFAULT,
  ALTER COLUMN "discount_amount" SET DATA TYPE bigint USING round("discount_amount" * 100)::bigint,
  ALTER COLUMN "discount_amount" SET DEFAULT 0,
  ALTER COLUMN "shipping" DROP DEFAULT,
  ALTER COLUMN "shipping" SET DATA TYPE bigint USING round("shipping" * 100)::bigint,
  ALTER COLUMN "shipping" SET DEFAULT 0,
  ALTER COLUMN "tax" DROP DEFAULT,
  ALTER COLUMN "tax" SET DATA TYPE bigint USING round("tax" * 100)::bigint,
  ALTER COLUMN "tax" SET DEFAULT 0,
  ALTER COLUMN "total" SET DATA TYPE bigint USING round("total" * 100)::bigint,
  ALTER COLUMN "amount_cents" SET DATA TYPE bigint;--> statement-breakpoint
ALTER TABLE "checkouts" RENAME COLUMN "subtotal" TO "subtotal_cents";--> statement-breakpoint
ALTER TABLE "checkouts" RENAME COLUMN "discount_amount" TO "discount_amount_cents";--> statement-breakpoint
ALTER TABLE "checkouts" RENAME COLUMN "shipping" TO "shipping_cents";--> statement-breakpoint
ALTER TABLE "checkouts" RENAME COLUMN "tax" TO "tax_cents";--> statement-breakpoint
ALTER TABLE "checkouts" RENAME COLUMN "total" TO "total_cents";--> statement-breakpoint
ALTER TABLE "checkouts"
  ADD CONSTRAINT "checkouts_subtotal_cents_non_negative" CHECK ("subtotal_cents" >= 0),
  ADD CONSTRAINT "checkouts_discount_amount_cents_non_negative" CHECK ("discount_amount_cents" >= 0),
  ADD CONSTRAINT "checkouts_shipping_cents_non_negative" CHECK ("shipping_cents" >= 0),
  ADD CONSTRAINT "checkouts_tax_cents_non_negative" CHECK ("tax_cents" >= 0),
  ADD CONSTRAINT "checkouts_total_cents_non_negative" CHECK ("total_cents" >= 0),
  ADD CONSTRAINT "checkouts_amount_cents_non_negative" CHECK ("amount_cents" >= 0);--> statement-breakpoint
ALTER TABLE "orders"
  ALTER COLUMN "subtotal" SET DATA TYPE bigint USING round("subtotal" * 100)::bigint,
  ALTER COLUMN "discount_amount" DROP DEFAULT,
  ALTER COLUMN "discount_amount" SET DATA TYPE bigint USING round("discount_amount" * 100)::bigint,
  ALTER COLUMN "discount_amount" SET DEFAULT 0,
  ALTER COLUMN "tax" DROP DEFAULT,
  ALTER COLUMN "tax" SET DATA TYPE bigint USING round("tax" * 100)::bigint,
  ALTER COLUMN "tax" SET DEFAULT 0,
  ALTER COLUMN "shipping" DROP DEFAULT,
  ALTER COLUMN "shipping" SET DATA TYPE bigint USING round("shipping" * 100)::bigint,
  ALTER COLUMN "shipping" SET DEFAULT 0,
  ALTER COLUMN "total" SET DATA TYPE bigint USING round("total" * 100)::bigint;--> statement-breakpoint
ALTER TABLE "orders" RENAME COLUMN "subtotal" TO "subtotal_cents";--> statement-breakpoint
ALTER TABLE "orders" RENAME COLUMN "discount_amount" TO "discount_amount_cents";--> statement-breakpoint
ALTER TABLE "orders" RENAME COLUMN "tax" TO "tax_cents";--> statement-breakpoint
ALTER TABLE "orders" RENAME COLUMN "shipping" TO "shipping_cents";--> statement-breakpoint
ALTER TABLE "orders" RENAME COLUMN "total" TO "total_cents";--> statement-breakpoint
ALTER TABLE "orders"
  ADD CONSTRAINT "orders_subtotal_cents_non_negative" CHECK ("subtotal_cents" >= 0),
  ADD CONSTRAINT "orders_discount_amount_cents_non_negative" CHECK ("discount_amount_cents" >= 0),
  ADD CONSTRAINT "orders_tax_cents_non_negative" CHECK ("tax_cents" >= 0),
  ADD CONSTRAINT "orders_shipping_cents_non_negative" CHECK ("shipping_cents" >= 0),
  ADD CONSTRAINT "orders_total_cents_non_negative" CHECK ("total_cents" >= 0);--> statement-breakpoint
ALTER TABLE "order_items"
  ALTER COLUMN "product_price" SET DATA TYPE bigint USING round("product_price" * 100)::bigint;--> statement-breakpoint
ALTER TABLE "order_items" RENAME COLUMN "product_price" TO "product_price_cents";--> statement-breakpoint
ALTER TABLE "order_items"
  ADD CONSTRAINT "order_items_product_price_cents_non_negative" CHECK ("product_price_cents" >= 0);
