-- A Voice belongs to the base model it was trained on (decision 31): its name, file, size and
-- SHA-256, recorded from here on when a training starts and ends, and carried by forks and imports.
-- Voices trained before this kept no record of it: those with an adapter are marked unknown (their
-- SHA-256 stays null). They wake with a warning unless their adapter's own files name another model
-- file (the server reads those names at start, VoicesService.recallBaseModels). Voices without an
-- adapter yet get theirs when their training runs.
ALTER TABLE "voices" ADD COLUMN "base_model_state" text;--> statement-breakpoint
ALTER TABLE "voices" ADD COLUMN "base_model_name" text;--> statement-breakpoint
ALTER TABLE "voices" ADD COLUMN "base_model_file" text;--> statement-breakpoint
ALTER TABLE "voices" ADD COLUMN "base_model_sha256" text;--> statement-breakpoint
ALTER TABLE "voices" ADD COLUMN "base_model_bytes" bigint;--> statement-breakpoint
UPDATE "voices" SET "base_model_state" = 'unknown' WHERE "adapter_key" IS NOT NULL;
