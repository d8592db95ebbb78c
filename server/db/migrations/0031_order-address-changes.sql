-- The buyer's hour after ordering (docs/product.md "Order page"): every change of an order's delivery address
-- is kept with the address before and after and who made it (the buyer from the order page, the owner).
CREATE TABLE "order_address_changes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"order_id" uuid NOT NULL,
	"changed_by" text NOT NULL,
	"old_address" jsonb NOT NULL,
	"new_address" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "order_address_changes_by_valid" CHECK ("order_address_changes"."changed_by" in ('buyer', 'owner'))
);--> statement-breakpoint
ALTER TABLE "order_address_changes" ADD CONSTRAINT "order_address_changes_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "order_address_changes_order_idx" ON "order_address_changes" USING btree ("order_id");
