ALTER TABLE "voices" ADD COLUMN "stage" text;--> statement-breakpoint
ALTER TABLE "voices" ADD COLUMN "eta_seconds" integer;--> statement-breakpoint
ALTER TABLE "voices" ADD COLUMN "lease_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "voices" ADD COLUMN "metered_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "voices" ADD COLUMN "last_used_at" timestamp with time zone;--> statement-breakpoint
-- Waking hours are now stored in minutes, so awake time can be charged by the minute.
UPDATE "usage_tranches" SET "amount" = "amount" * 60 WHERE "type" = 'activationHours';
