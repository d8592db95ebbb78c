-- A piece marked at listing as a final sale (the refund policy: "non-returnable items marked at listing");
-- every product made before it stays returnable.
ALTER TABLE "products" ADD COLUMN "non_returnable" boolean DEFAULT false NOT NULL;
