-- Whether an API key wakes a sleeping Voice it is asked to write with (decision 45). Keys made
-- before the choice existed keep not waking: nobody agreed to their spending waking hours.
ALTER TABLE "api_keys" ADD COLUMN "wakes_voices" boolean DEFAULT false NOT NULL;