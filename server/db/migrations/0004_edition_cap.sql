ALTER TABLE "products" ADD COLUMN "held_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- Units open checkouts hold today.
UPDATE "products" SET "held_count" = h.n FROM (SELECT "product_id", sum("quantity")::int AS n FROM "stock_holds" WHERE "status" = 'held' GROUP BY "product_id") h WHERE h."product_id" = "products"."id";--> statement-breakpoint
-- Pieces already sold (or held) beyond the edition stay numbered as they are: the edition grows to cover them.
UPDATE "products" SET "edition_size" = "sold_count" + "held_count" WHERE "sold_count" + "held_count" > "edition_size";--> statement-breakpoint
-- Stock above what the edition has left was never made: it goes.
UPDATE "products" SET "stock" = "edition_size" - "sold_count" - "held_count" WHERE "stock" + "held_count" + "sold_count" > "edition_size";--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_held_non_negative" CHECK ("products"."held_count" >= 0);--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_within_edition" CHECK ("products"."stock" + "products"."held_count" + "products"."sold_count" <= "products"."edition_size");
