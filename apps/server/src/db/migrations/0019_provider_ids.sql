-- The columns hold either payment provider's ids (Stripe's, or the offline checkout's): named for
-- the concept, not for one provider. A rename keeps every value.
ALTER TABLE "users" RENAME COLUMN "stripe_subscription_id" TO "provider_subscription_id";--> statement-breakpoint
ALTER TABLE "users" RENAME COLUMN "stripe_customer_id" TO "provider_customer_id";
