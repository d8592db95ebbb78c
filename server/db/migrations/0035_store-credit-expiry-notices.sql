-- The "your store credit expires in 30 days" mail, once per grant: the ledger stays append-only, the notice
-- that a grant's buyer was told is a row of its own.
CREATE TABLE "store_credit_expiry_notices" (
	"grant_id" uuid PRIMARY KEY NOT NULL REFERENCES "store_credit_entries"("id") ON DELETE CASCADE,
	"sent_at" timestamp with time zone DEFAULT now() NOT NULL
);
