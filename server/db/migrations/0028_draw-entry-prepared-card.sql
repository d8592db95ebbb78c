-- The card of a draw entry is authorised only once its mailbox is confirmed (docs/draw.md, "The card is
-- asked at confirmation"): until then the entry keeps a prepared authorisation that holds nothing and never
-- reached the bank, state 'prepared'. Entries made before this were authorised at entry and keep their state.
ALTER TABLE "draw_entries" DROP CONSTRAINT "draw_entries_authorisation_valid";--> statement-breakpoint
ALTER TABLE "draw_entries" ADD CONSTRAINT "draw_entries_authorisation_valid" CHECK ("draw_entries"."authorisation_state" in ('prepared', 'authorised', 'captured', 'voided', 'failed'));
