-- When a Voice's training ended, for the manifest of its package (its trainedAt): set as a training
-- ends, carried by forks, taken from the package by imports. Voices trained before this have none;
-- their package gives the time their adapter file was written instead.
ALTER TABLE "voices" ADD COLUMN "trained_at" timestamp with time zone;
