-- Alerts people can act on (ADR 011, amendment "Alerts people can act on"): a waiting-room ticket may carry
-- the e-mail its holder gave for a "your turn" mail, the page's last visibility heartbeat, and when that
-- mail went out (once per ticket, claimed with SKIP LOCKED by whichever instance gets there first).
ALTER TABLE "drop_queue" ADD COLUMN "email" text;--> statement-breakpoint
ALTER TABLE "drop_queue" ADD COLUMN "seen_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "drop_queue" ADD COLUMN "visible" boolean;--> statement-breakpoint
ALTER TABLE "drop_queue" ADD COLUMN "turn_mailed_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "drop_queue_turn_mail_idx" ON "drop_queue" USING btree ("product_id") WHERE "email" is not null and "turn_mailed_at" is null;
