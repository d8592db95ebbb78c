-- Store credit kept like money (docs/product.md "Store credit"): one account per folded mailbox (ADR 013, a keyed
-- hash), an append-only ledger of entries, and a redemption per checkout with its own lifecycle (held → spent | released).
CREATE TABLE "store_credit_accounts" (
	"owner_key" text PRIMARY KEY NOT NULL,
	"email" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);--> statement-breakpoint
CREATE TABLE "store_credit_redemptions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"owner_key" text NOT NULL,
	"checkout_id" uuid NOT NULL,
	"amount_cents" bigint NOT NULL,
	"status" text DEFAULT 'held' NOT NULL,
	"order_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"settled_at" timestamp with time zone,
	CONSTRAINT "store_credit_redemptions_amount_positive" CHECK ("store_credit_redemptions"."amount_cents" > 0),
	CONSTRAINT "store_credit_redemptions_status_valid" CHECK ("store_credit_redemptions"."status" in ('held', 'spent', 'released'))
);--> statement-breakpoint
CREATE TABLE "store_credit_entries" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"owner_key" text NOT NULL,
	"kind" text NOT NULL,
	"amount_cents" bigint NOT NULL,
	"grant_id" uuid,
	"redemption_id" uuid,
	"source" text,
	"reason" text,
	"order_id" uuid,
	"source_ref" text,
	"expires_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "store_credit_entries_amount_positive" CHECK ("store_credit_entries"."amount_cents" > 0),
	CONSTRAINT "store_credit_entries_kind_valid" CHECK ("store_credit_entries"."kind" in ('grant', 'redemption', 'expiry', 'release')),
	CONSTRAINT "store_credit_entries_source_valid" CHECK ("store_credit_entries"."source" is null or "store_credit_entries"."source" in ('return', 'cancellation', 'refund', 'manual')),
	CONSTRAINT "store_credit_entries_grant_shape" CHECK (("store_credit_entries"."kind" = 'grant') = ("store_credit_entries"."expires_at" is not null and "store_credit_entries"."source" is not null and "store_credit_entries"."grant_id" is null))
);--> statement-breakpoint
ALTER TABLE "store_credit_redemptions" ADD CONSTRAINT "store_credit_redemptions_owner_key_fk" FOREIGN KEY ("owner_key") REFERENCES "public"."store_credit_accounts"("owner_key") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "store_credit_entries" ADD CONSTRAINT "store_credit_entries_owner_key_fk" FOREIGN KEY ("owner_key") REFERENCES "public"."store_credit_accounts"("owner_key") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "store_credit_entries" ADD CONSTRAINT "store_credit_entries_grant_id_fk" FOREIGN KEY ("grant_id") REFERENCES "public"."store_credit_entries"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "store_credit_entries" ADD CONSTRAINT "store_credit_entries_redemption_id_fk" FOREIGN KEY ("redemption_id") REFERENCES "public"."store_credit_redemptions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "store_credit_entries_owner_idx" ON "store_credit_entries" USING btree ("owner_key");--> statement-breakpoint
CREATE INDEX "store_credit_entries_grant_idx" ON "store_credit_entries" USING btree ("grant_id");--> statement-breakpoint
CREATE UNIQUE INDEX "store_credit_entries_source_ref_idx" ON "store_credit_entries" USING btree ("source_ref") WHERE "store_credit_entries"."source_ref" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "store_credit_redemptions_checkout_idx" ON "store_credit_redemptions" USING btree ("checkout_id") WHERE "store_credit_redemptions"."status" <> 'released';--> statement-breakpoint
CREATE INDEX "store_credit_redemptions_held_idx" ON "store_credit_redemptions" USING btree ("created_at") WHERE "store_credit_redemptions"."status" = 'held';
--> statement-breakpoint
ALTER TABLE "order_refunds" DROP CONSTRAINT "order_refunds_destination_valid";--> statement-breakpoint
ALTER TABLE "order_refunds" ADD CONSTRAINT "order_refunds_destination_valid" CHECK ("order_refunds"."destination" in ('card', 'credit'));
--> statement-breakpoint
-- What store credit paid of an order (its total less what the card paid): the order page and the admin show it.
ALTER TABLE "orders" ADD COLUMN "store_credit_cents" bigint DEFAULT 0 NOT NULL;
