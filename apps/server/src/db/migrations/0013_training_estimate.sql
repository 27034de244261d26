ALTER TABLE "voices" ADD COLUMN "estimated_done_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "voices" DROP COLUMN "eta_seconds";