CREATE TABLE "billing_actions" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" text,
	"kind" text NOT NULL,
	"target" text NOT NULL,
	"amount_cents" integer,
	"reason" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_error" text,
	"created_at" timestamp with time zone NOT NULL,
	"done_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "billing_reconciliations" (
	"id" text PRIMARY KEY NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"finished_at" timestamp with time zone,
	"checked" integer DEFAULT 0 NOT NULL,
	"repaired" integer DEFAULT 0 NOT NULL,
	"error" text,
	"requested_by" text
);
--> statement-breakpoint
CREATE TABLE "billing_subscriptions" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"decision" text NOT NULL,
	"decided_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "deleted_customers" (
	"user_id" text PRIMARY KEY NOT NULL,
	"customer_id" text,
	"deleted_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "offline_customers" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"card" text,
	"card_decline" text,
	"card_fingerprint" text,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "offline_events" (
	"id" text PRIMARY KEY NOT NULL,
	"seq" bigserial NOT NULL,
	"payload" text NOT NULL,
	"delivered_at" timestamp with time zone,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone NOT NULL,
	"last_error" text
);
--> statement-breakpoint
CREATE TABLE "offline_invoices" (
	"id" text PRIMARY KEY NOT NULL,
	"subscription_id" text NOT NULL,
	"user_id" text NOT NULL,
	"customer_id" text NOT NULL,
	"billing_reason" text NOT NULL,
	"lines" jsonb NOT NULL,
	"total_cents" integer NOT NULL,
	"status" text NOT NULL,
	"payment_intent_id" text,
	"failure" text,
	"requires_action" boolean DEFAULT false NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL,
	"paid_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "offline_payments" (
	"id" text PRIMARY KEY NOT NULL,
	"customer_id" text NOT NULL,
	"amount_cents" integer NOT NULL,
	"refunded_cents" integer DEFAULT 0 NOT NULL,
	"dispute_status" text,
	"refund_keys" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "payments" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"kind" text NOT NULL,
	"payment_intent_id" text,
	"subscription_id" text,
	"amount_cents" integer NOT NULL,
	"refunded_cents" integer DEFAULT 0 NOT NULL,
	"dispute_status" text,
	"outcome" text NOT NULL,
	"description" text NOT NULL,
	"paid_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "trial_claims" (
	"key" text PRIMARY KEY NOT NULL,
	"claimed_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "offline_checkouts" ADD COLUMN "subscription_id" text;--> statement-breakpoint
ALTER TABLE "offline_checkouts" ADD COLUMN "invoice_id" text;--> statement-breakpoint
ALTER TABLE "offline_checkouts" ADD COLUMN "payment_intent_id" text;--> statement-breakpoint
ALTER TABLE "offline_checkouts" ADD COLUMN "setup_intent_id" text;--> statement-breakpoint
ALTER TABLE "offline_checkouts" ADD COLUMN "expires_at" timestamp with time zone;--> statement-breakpoint
UPDATE "offline_checkouts" SET "expires_at" = "created_at" + interval '24 hours';--> statement-breakpoint
UPDATE "offline_checkouts" SET "status" = 'expired' WHERE "status" = 'canceled';--> statement-breakpoint
ALTER TABLE "offline_checkouts" ALTER COLUMN "expires_at" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "offline_subscriptions" ADD COLUMN "latest_invoice_id" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "payment_due" jsonb;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "trial_refused_at" timestamp with time zone;--> statement-breakpoint
CREATE UNIQUE INDEX "billing_actions_once" ON "billing_actions" USING btree ("kind","target");--> statement-breakpoint
CREATE INDEX "billing_actions_status_idx" ON "billing_actions" USING btree ("status");--> statement-breakpoint
CREATE INDEX "billing_subscriptions_user_idx" ON "billing_subscriptions" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "offline_events_pending_idx" ON "offline_events" USING btree ("delivered_at","next_attempt_at");--> statement-breakpoint
CREATE INDEX "offline_invoices_subscription_idx" ON "offline_invoices" USING btree ("subscription_id");--> statement-breakpoint
CREATE INDEX "payments_user_idx" ON "payments" USING btree ("user_id","paid_at");--> statement-breakpoint
CREATE INDEX "payments_intent_idx" ON "payments" USING btree ("payment_intent_id");--> statement-breakpoint
INSERT INTO "billing_subscriptions" ("id", "user_id", "decision", "decided_at")
  SELECT "stripe_subscription_id", "id", 'adopted', now() FROM "users" WHERE "stripe_subscription_id" IS NOT NULL;
