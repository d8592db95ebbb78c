-- The draw (ADR 018, docs/draw.md): a product sold by draw, its entry window, its commitment and the seed
-- kept secret until the draw. At most one draw of a product is under way at a time.
CREATE TABLE "draws" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"product_id" uuid NOT NULL,
	"status" text DEFAULT 'scheduled' NOT NULL,
	"opens_at" timestamp with time zone NOT NULL,
	"closes_at" timestamp with time zone NOT NULL,
	"draw_at" timestamp with time zone NOT NULL,
	"price_cents" bigint NOT NULL,
	"commitment" text NOT NULL,
	"seed" text NOT NULL,
	"drawn_at" timestamp with time zone,
	"settled_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "draws_status_valid" CHECK ("draws"."status" in ('scheduled', 'open', 'closed', 'drawn', 'settled', 'cancelled')),
	CONSTRAINT "draws_window_order" CHECK ("draws"."closes_at" > "draws"."opens_at" and "draws"."draw_at" >= "draws"."closes_at"),
	CONSTRAINT "draws_within_authorisation" CHECK ("draws"."draw_at" - "draws"."opens_at" <= interval '7 days'),
	CONSTRAINT "draws_price_non_negative" CHECK ("draws"."price_cents" >= 0)
);
--> statement-breakpoint
ALTER TABLE "draws" ADD CONSTRAINT "draws_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "draws_one_live_per_product" ON "draws" USING btree ("product_id") WHERE "draws"."status" in ('scheduled', 'open', 'closed', 'drawn');--> statement-breakpoint
CREATE INDEX "draws_due_idx" ON "draws" USING btree ("status","draw_at");
