-- Drop day for the owner: a tracking number and carrier on an order (the "shipped" e-mail links to it),
-- an index for the admin's paged order list (newest first), and a message the owner shows everyone
-- waiting in a drop's room.
ALTER TABLE "orders" ADD COLUMN "tracking_number" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "carrier" text;--> statement-breakpoint
CREATE INDEX "orders_created_idx" ON "orders" USING btree ("created_at" DESC,"id");--> statement-breakpoint
ALTER TABLE "drops" ADD COLUMN "message" text;
