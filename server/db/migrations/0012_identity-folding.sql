-- Identity folding (ADR 013): newsletter signups and 'Notify me' signups are keyed by a keyed hash of the
-- folded mailbox (common/domain/identity.ts), so the spellings of one inbox get one welcome code and one alert
-- per product. Rows from before have no key yet: the services fill it from the stored e-mail on first use
-- (a second spelling of a mailbox that already holds the key keeps none and stays as it was).
ALTER TABLE "newsletter_subscriptions" ADD COLUMN "mailbox_key" text;--> statement-breakpoint
CREATE UNIQUE INDEX "newsletter_subscriptions_mailbox_key_idx" ON "newsletter_subscriptions" USING btree ("mailbox_key");--> statement-breakpoint
ALTER TABLE "product_alerts" ADD COLUMN "mailbox_key" text;--> statement-breakpoint
CREATE UNIQUE INDEX "product_alerts_mailbox_once" ON "product_alerts" USING btree ("product_id","mailbox_key","kind");
