CREATE TABLE "voices" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"name" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"progress" integer DEFAULT 0 NOT NULL,
	"status_message" text,
	"is_public" boolean DEFAULT false NOT NULL,
	"pipeline_id" text,
	"adapter_key" text,
	"forked_from_id" text,
	"characters" integer,
	"evaluation" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "voices" ADD CONSTRAINT "voices_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "voices_user_id_idx" ON "voices" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "voices_public_idx" ON "voices" USING btree ("is_public");