-- Draw some pieces, sell the rest (docs/draw.md "Pieces"): how many of the product's pieces the draw gives
-- out. NULL (every draw made before this, and the default) is every piece; a number caps the winners, and
-- the pieces left after the draw go on sale as the product is set up (its release time and waiting room).
ALTER TABLE "draws" ADD COLUMN "pieces" integer;--> statement-breakpoint
ALTER TABLE "draws" ADD CONSTRAINT "draws_pieces_range" CHECK ("draws"."pieces" is null or "draws"."pieces" between 1 and 10000);
