-- Links mailed to an address a request chose (a sign-up's confirmation, a new address's), counted
-- per address whichever account asked, deleted ones included (decision 33): by the SHA-256 of the
-- address, so nothing of a deleted account's address is kept. Rows older than an hour are purged.
CREATE TABLE "mailed_links" (
	"id" text PRIMARY KEY NOT NULL,
	"address_hash" text NOT NULL,
	"sent_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "mailed_links_address_sent_idx" ON "mailed_links" USING btree ("address_hash","sent_at");--> statement-breakpoint
CREATE INDEX "mailed_links_sent_at_idx" ON "mailed_links" USING btree ("sent_at");