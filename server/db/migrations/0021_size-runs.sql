-- Size runs (ADR 015): stock, held and sold pieces per size in product_variants; the products row keeps
-- their sums. Every existing product becomes ONE "one run" variant (size null: any listed size) holding
-- exactly its stock, held and sold counts, and every stock hold points at it, so no piece is lost.
CREATE TABLE "product_variants" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"product_id" uuid NOT NULL,
	"size" text,
	"colour" text,
	"position" integer DEFAULT 0 NOT NULL,
	"stock" integer DEFAULT 0 NOT NULL,
	"held_count" integer DEFAULT 0 NOT NULL,
	"sold_count" integer DEFAULT 0 NOT NULL,
	"sold_out_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "product_variants_stock_non_negative" CHECK ("product_variants"."stock" >= 0),
	CONSTRAINT "product_variants_held_non_negative" CHECK ("product_variants"."held_count" >= 0),
	CONSTRAINT "product_variants_sold_non_negative" CHECK ("product_variants"."sold_count" >= 0),
	CONSTRAINT "product_variants_size_length" CHECK ("product_variants"."size" is null or char_length("product_variants"."size") between 1 and 20)
);
--> statement-breakpoint
ALTER TABLE "product_variants" ADD CONSTRAINT "product_variants_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "product_variants_label_once" ON "product_variants" USING btree ("product_id",lower(coalesce("size", '')),lower(coalesce("colour", '')));--> statement-breakpoint
ALTER TABLE "stock_holds" ADD COLUMN "variant_id" uuid;--> statement-breakpoint
ALTER TABLE "stock_holds" ADD CONSTRAINT "stock_holds_variant_id_product_variants_id_fk" FOREIGN KEY ("variant_id") REFERENCES "public"."product_variants"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "stock_holds_variant_idx" ON "stock_holds" USING btree ("variant_id");--> statement-breakpoint
INSERT INTO "product_variants" ("product_id", "size", "colour", "position", "stock", "held_count", "sold_count")
SELECT "id", NULL, NULL, 0, "stock", "held_count", "sold_count" FROM "products";--> statement-breakpoint
UPDATE "stock_holds" SET "variant_id" = v."id"
FROM "product_variants" v
WHERE v."product_id" = "stock_holds"."product_id" AND v."size" IS NULL AND v."colour" IS NULL;
