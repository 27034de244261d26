-- A training's events (GET /api/loras/:id/training-events, issue 59): stage changes, progress every
-- few percent and the end, kept per Voice in the order written (seq), deleted with the Voice.
CREATE TABLE "training_events" (
	"id" text PRIMARY KEY NOT NULL,
	"seq" integer GENERATED ALWAYS AS IDENTITY (sequence name "training_events_seq_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"voice_id" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"level" text NOT NULL,
	"stage" text NOT NULL,
	"step" integer,
	"total_steps" integer,
	"message" text NOT NULL,
	"estimated_done_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "training_events" ADD CONSTRAINT "training_events_voice_id_voices_id_fk" FOREIGN KEY ("voice_id") REFERENCES "public"."voices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "training_events_voice_seq_idx" ON "training_events" USING btree ("voice_id","seq");