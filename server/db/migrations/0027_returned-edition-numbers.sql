-- A returned piece keeps its edition number (docs/product.md, "Edition numbers"): the numbers of pieces
-- given back wait here, ascending, and the next sale takes them before any new number. Until now a return
-- lowered sold_count alone, so the next sale got the number after it, which another buyer already held.
ALTER TABLE "products" ADD COLUMN "returned_numbers" integer[] DEFAULT '{}'::integer[] NOT NULL;
