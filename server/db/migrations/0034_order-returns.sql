-- Returns by the refund policy (docs/product.md "Returns"): when an order became delivered (the buyer's 2-day
-- window to ask starts there), and each return with its lines, its state and the credit it granted.
ALTER TABLE "orders" ADD COLUMN "delivered_at" timestamp with time zone;--> statement-breakpoint
CREATE TABLE "order_returns" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"order_id" uuid NOT NULL,
	"status" text DEFAULT 'requested' NOT NULL,
	"reason" text NOT NULL,
	"lines" jsonb NOT NULL,
	"credit_cents" bigint DEFAULT 0 NOT NULL,
	"note" text,
	"approved_at" timestamp with time zone,
	"ship_back_by" timestamp with time zone,
	"reminded_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "order_returns_status_valid" CHECK ("order_returns"."status" in ('requested', 'approved', 'declined', 'received', 'expired', 'accepted', 'rejected')),
	CONSTRAINT "order_returns_credit_non_negative" CHECK ("order_returns"."credit_cents" >= 0)
);--> statement-breakpoint
ALTER TABLE "order_returns" ADD CONSTRAINT "order_returns_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "order_returns_order_idx" ON "order_returns" USING btree ("order_id");--> statement-breakpoint
CREATE INDEX "order_returns_open_idx" ON "order_returns" USING btree ("status", "ship_back_by") WHERE "order_returns"."status" = 'approved';
