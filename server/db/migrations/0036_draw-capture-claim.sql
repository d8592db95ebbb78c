-- A draw's capture is claimed (authorisation_state 'capturing') in a short transaction, the gateway asked
-- outside any transaction, and the answer recorded in a second one: no row lock is held across the call.
ALTER TABLE "draw_entries" DROP CONSTRAINT "draw_entries_authorisation_valid";--> statement-breakpoint
ALTER TABLE "draw_entries" ADD CONSTRAINT "draw_entries_authorisation_valid" CHECK ("draw_entries"."authorisation_state" in ('prepared', 'authorised', 'capturing', 'captured', 'voided', 'failed'));
