-- Fair over time for the draw (ADR 018, docs/draw.md "Fair over time"): the owner's rule per draw — off,
-- loyalty (entrants who lost their last draws here weigh more) or sit_out (recent winners are removed
-- before the draw) — and its look-back K (1 to 5 earlier draws; none when off). A draw without a row here
-- is off. The weights the rule gives are stored on each entry (draw_entries.weight) when the draw runs.
--
-- Its own table, keyed by the draw (deleted with it). The draws module writes a draw and its rule in one
-- transaction. The index finds an entrant's earlier draws (by folded mailbox) when a rule looks back.
CREATE TABLE "draw_fairness" (
	"draw_id" uuid PRIMARY KEY NOT NULL REFERENCES "draws"("id") ON DELETE CASCADE,
	"rule" text DEFAULT 'off' NOT NULL,
	"lookback" smallint,
	CONSTRAINT "draw_fairness_rule_valid" CHECK ("draw_fairness"."rule" in ('off', 'loyalty', 'sit_out')),
	CONSTRAINT "draw_fairness_lookback" CHECK (
		("draw_fairness"."rule" = 'off' and "draw_fairness"."lookback" is null)
		or ("draw_fairness"."rule" <> 'off' and "draw_fairness"."lookback" between 1 and 5)
	)
);--> statement-breakpoint
CREATE INDEX "draw_entries_mailbox_idx" ON "draw_entries" USING btree ("mailbox_key");
