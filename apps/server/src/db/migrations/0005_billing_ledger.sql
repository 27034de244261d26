CREATE TABLE "billing_events" (
	"id" text PRIMARY KEY NOT NULL,
	"type" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"handled_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ledger_entries" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"resource" text NOT NULL,
	"amount" integer NOT NULL,
	"reason" text NOT NULL,
	"tranche_id" text,
	"refund_of" text,
	"reference" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "offline_checkouts" (
	"id" text PRIMARY KEY NOT NULL,
	"idempotency_key" text NOT NULL,
	"kind" text NOT NULL,
	"user_id" text NOT NULL,
	"customer_id" text NOT NULL,
	"plan" text,
	"billing_cycle" text,
	"pay_now" boolean DEFAULT false NOT NULL,
	"pack" text,
	"amount_cents" integer NOT NULL,
	"success_url" text NOT NULL,
	"cancel_url" text NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "offline_checkouts_idempotency_key_unique" UNIQUE("idempotency_key")
);
--> statement-breakpoint
CREATE TABLE "offline_subscriptions" (
	"id" text PRIMARY KEY NOT NULL,
	"idempotency_key" text NOT NULL,
	"user_id" text NOT NULL,
	"customer_id" text NOT NULL,
	"plan" text NOT NULL,
	"billing_cycle" text NOT NULL,
	"pay_now" boolean NOT NULL,
	"status" text NOT NULL,
	"cancel_at_period_end" boolean DEFAULT false NOT NULL,
	"current_period_start" timestamp with time zone NOT NULL,
	"current_period_end" timestamp with time zone NOT NULL,
	"scheduled_plan" text,
	"scheduled_billing_cycle" text,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "offline_subscriptions_idempotency_key_unique" UNIQUE("idempotency_key")
);
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "stripe_customer_id" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "pay_now_discount" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "trial_started_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "trial_setup_intent_id" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "current_period_end" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "pending_plan" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "pending_billing_cycle" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "pending_effective_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "pending_for_subscription_id" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "granted_plan" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "granted_billing_cycle" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "one_time_granted" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_tranche_id_usage_tranches_id_fk" FOREIGN KEY ("tranche_id") REFERENCES "public"."usage_tranches"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "ledger_entries_user_idx" ON "ledger_entries" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "ledger_entries_refund_of_idx" ON "ledger_entries" USING btree ("refund_of");--> statement-breakpoint
CREATE UNIQUE INDEX "ledger_entries_grant_once" ON "ledger_entries" USING btree ("user_id","reason","resource","reference");--> statement-breakpoint
-- What accounts already hold opens the ledger, so every balance is the sum of its lines.
INSERT INTO "ledger_entries" ("id", "user_id", "resource", "amount", "reason", "tranche_id", "reference", "created_at")
SELECT substr(md5('opening:' || "id"), 1, 24), "user_id", "type", "amount", 'opening', "id", 'opening:' || "id", "created_at"
FROM "usage_tranches";--> statement-breakpoint
INSERT INTO "ledger_entries" ("id", "user_id", "resource", "amount", "reason", "reference", "created_at")
SELECT substr(md5('opening-slots:' || "id"), 1, 24), "id", 'storageSlots', "model_storage_slots_total", 'opening', 'opening', "created_at"
FROM "users" WHERE "model_storage_slots_total" <> 0;
