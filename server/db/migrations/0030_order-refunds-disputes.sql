-- After the sale (ADR 021): refunds and disputes are records of their own beside the six order statuses; an
-- order line the owner cancelled keeps its row (and edition numbers, for the record) with the time it was cancelled.
ALTER TABLE "order_items" ADD COLUMN "cancelled_at" timestamp with time zone;--> statement-breakpoint
CREATE TABLE "order_refunds" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"order_id" uuid NOT NULL,
	"amount_cents" bigint NOT NULL,
	"status" text DEFAULT 'requested' NOT NULL,
	"destination" text DEFAULT 'card' NOT NULL,
	"reason" text NOT NULL,
	"pieces" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"gateway_refund_id" text,
	"request_key" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"settled_at" timestamp with time zone,
	CONSTRAINT "order_refunds_gateway_refund_id_unique" UNIQUE("gateway_refund_id"),
	CONSTRAINT "order_refunds_amount_positive" CHECK ("order_refunds"."amount_cents" > 0),
	CONSTRAINT "order_refunds_status_valid" CHECK ("order_refunds"."status" in ('requested', 'succeeded', 'failed')),
	CONSTRAINT "order_refunds_destination_valid" CHECK ("order_refunds"."destination" in ('card')),
	CONSTRAINT "order_refunds_reason_valid" CHECK ("order_refunds"."reason" in ('cancellation', 'goodwill', 'provider'))
);--> statement-breakpoint
CREATE TABLE "order_disputes" (
	"id" text PRIMARY KEY NOT NULL,
	"order_id" uuid NOT NULL,
	"amount_cents" bigint NOT NULL,
	"reason" text NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"opened_at" timestamp with time zone DEFAULT now() NOT NULL,
	"closed_at" timestamp with time zone,
	CONSTRAINT "order_disputes_status_valid" CHECK ("order_disputes"."status" in ('open', 'won', 'lost'))
);--> statement-breakpoint
CREATE TABLE "offline_refunds" (
	"id" text PRIMARY KEY NOT NULL,
	"intent_id" text NOT NULL,
	"idempotency_key" text NOT NULL,
	"amount" integer NOT NULL,
	"metadata" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);--> statement-breakpoint
ALTER TABLE "order_refunds" ADD CONSTRAINT "order_refunds_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_disputes" ADD CONSTRAINT "order_disputes_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "order_refunds_order_idx" ON "order_refunds" USING btree ("order_id");--> statement-breakpoint
CREATE UNIQUE INDEX "order_refunds_request_key_idx" ON "order_refunds" USING btree ("order_id","request_key");--> statement-breakpoint
CREATE INDEX "order_refunds_requested_idx" ON "order_refunds" USING btree ("created_at") WHERE "order_refunds"."status" = 'requested';--> statement-breakpoint
CREATE INDEX "order_disputes_order_idx" ON "order_disputes" USING btree ("order_id");--> statement-breakpoint
CREATE UNIQUE INDEX "offline_refunds_key_idx" ON "offline_refunds" USING btree ("idempotency_key");--> statement-breakpoint
CREATE INDEX "offline_refunds_intent_idx" ON "offline_refunds" USING btree ("intent_id");
