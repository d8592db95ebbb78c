CREATE TABLE "admin_devices" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"token_hash" text NOT NULL,
	"password_tag" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_used_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_agent" text NOT NULL,
	"last_network" text NOT NULL,
	"revoked_at" timestamp with time zone,
	CONSTRAINT "admin_devices_token_hash_unique" UNIQUE("token_hash")
);
