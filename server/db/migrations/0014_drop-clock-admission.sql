-- Admission that matches what can be bought (ADR 010): every tick counts the admitted places whose pass
-- is still live, per drop; this partial index keeps that count to the admitted rows of one product.
CREATE INDEX "drop_queue_admitted_idx" ON "drop_queue" USING btree ("product_id","admitted_at") WHERE "drop_queue"."status" = 'admitted';
