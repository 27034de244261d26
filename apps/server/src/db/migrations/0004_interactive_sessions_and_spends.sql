CREATE TABLE "interactive_sessions" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"voice_id" text NOT NULL,
	"state" jsonb NOT NULL,
	"version" integer DEFAULT 0 NOT NULL,
	"paid" integer DEFAULT 0 NOT NULL,
	"drafts" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "usage_spends" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"tranche_id" text NOT NULL,
	"type" text NOT NULL,
	"amount" integer NOT NULL,
	"refunded" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "interactive_sessions" ADD CONSTRAINT "interactive_sessions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "usage_spends" ADD CONSTRAINT "usage_spends_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "usage_spends" ADD CONSTRAINT "usage_spends_tranche_id_usage_tranches_id_fk" FOREIGN KEY ("tranche_id") REFERENCES "public"."usage_tranches"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "interactive_sessions_user_idx" ON "interactive_sessions" USING btree ("user_id","updated_at");--> statement-breakpoint
CREATE INDEX "usage_spends_user_type_idx" ON "usage_spends" USING btree ("user_id","type","created_at");