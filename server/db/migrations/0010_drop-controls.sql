CREATE TABLE "product_alerts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"product_id" uuid NOT NULL,
	"email" text NOT NULL,
	"kind" text NOT NULL,
	"token" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"notified_at" timestamp with time zone,
	"reserved_until" timestamp with time zone,
	"unsubscribed_at" timestamp with time zone,
	CONSTRAINT "product_alerts_token_unique" UNIQUE("token"),
	CONSTRAINT "product_alerts_once" UNIQUE("product_id","email","kind"),
	CONSTRAINT "product_alerts_kind_valid" CHECK ("product_alerts"."kind" in ('release', 'restock'))
);
--> statement-breakpoint
CREATE TABLE "drop_queue" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"product_id" uuid NOT NULL,
	"session_id" text NOT NULL,
	"address_key" text NOT NULL,
	"seq" bigserial NOT NULL,
	"raffle" boolean NOT NULL,
	"lottery_key" double precision NOT NULL,
	"arrived_at" timestamp with time zone DEFAULT now() NOT NULL,
	"admitted_at" timestamp with time zone,
	"status" text DEFAULT 'waiting' NOT NULL,
	CONSTRAINT "drop_queue_session_unique" UNIQUE("product_id","session_id"),
	CONSTRAINT "drop_queue_status_valid" CHECK ("drop_queue"."status" in ('waiting', 'admitted', 'sold_out', 'left'))
);
--> statement-breakpoint
CREATE TABLE "drops" (
	"product_id" uuid PRIMARY KEY NOT NULL,
	"admit_per_minute" integer DEFAULT 300 NOT NULL,
	"paused" boolean DEFAULT false NOT NULL,
	"admitted_count" integer DEFAULT 0 NOT NULL,
	"admitted_at" timestamp with time zone,
	"sold_out_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "drops_admit_rate_range" CHECK ("drops"."admit_per_minute" between 1 and 100000),
	CONSTRAINT "drops_admitted_non_negative" CHECK ("drops"."admitted_count" >= 0)
);
--> statement-breakpoint
CREATE TABLE "purchase_claims" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"product_id" uuid NOT NULL,
	"checkout_id" uuid NOT NULL,
	"identity" text NOT NULL,
	"quantity" integer NOT NULL,
	"status" text DEFAULT 'held' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"released_at" timestamp with time zone,
	CONSTRAINT "purchase_claims_qty" CHECK ("purchase_claims"."quantity" > 0),
	CONSTRAINT "purchase_claims_status_valid" CHECK ("purchase_claims"."status" in ('held', 'consumed', 'released'))
);
--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "max_per_shopper" integer DEFAULT 2 NOT NULL;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "sold_out_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "product_alerts" ADD CONSTRAINT "product_alerts_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "drop_queue" ADD CONSTRAINT "drop_queue_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "drops" ADD CONSTRAINT "drops_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "purchase_claims" ADD CONSTRAINT "purchase_claims_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "purchase_claims" ADD CONSTRAINT "purchase_claims_checkout_id_checkouts_id_fk" FOREIGN KEY ("checkout_id") REFERENCES "public"."checkouts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "product_alerts_pending_idx" ON "product_alerts" USING btree ("product_id","kind","created_at");--> statement-breakpoint
CREATE INDEX "drop_queue_order_idx" ON "drop_queue" USING btree ("product_id","raffle","lottery_key","seq");--> statement-breakpoint
CREATE INDEX "drop_queue_address_idx" ON "drop_queue" USING btree ("product_id","address_key");--> statement-breakpoint
CREATE INDEX "purchase_claims_product_identity_idx" ON "purchase_claims" USING btree ("product_id","identity");--> statement-breakpoint
CREATE INDEX "purchase_claims_checkout_idx" ON "purchase_claims" USING btree ("checkout_id");--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_max_per_shopper_range" CHECK ("products"."max_per_shopper" between 1 and 50);