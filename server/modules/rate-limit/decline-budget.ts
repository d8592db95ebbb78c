import crypto from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { rateLimits } from './rate-limit.tables';

/** Who a card decline is counted against: the network, the session (when there is one) and the card. */
export interface DeclineParties {
  /** The network address as the shopper plugin folds it (IPv6 by its prefix). */
  address: string;
  sessionId: string | null;
  /** A keyed hash of the card's fingerprint, when known. */
  cardKey: string | null;
}

export interface DeclineBudgetOptions {
  /** Declines allowed per party and window (docs/security.md, "Card testing"). */
  max?: number;
  windowMs?: number;
}

/**
 * A small budget of card declines (docs/security.md, "Card testing"): at most `max` declines in a window per
 * network address, per session and per card. A card tester needs many declines to learn anything; a shopper
 * who mistypes needs one or two. Counted in the rate limits' table (only hashes, pruned by its job), so every
 * instance shares the counts. Only declines are counted: a card that is authorised spends nothing.
 */
export function createDeclineBudget(db: Db, opts: DeclineBudgetOptions = {}) {
  const max = opts.max ?? 3;
  const windowMs = opts.windowMs ?? 10 * 60_000;

  const keysOf = (p: DeclineParties): string[] => {
    const parties: Array<[string, string | null]> = [
      ['address', p.address],
      ['session', p.sessionId],
      ['card', p.cardKey],
    ];
    return parties.flatMap(([kind, value]) =>
      value ? [`card-decline:${kind}:${crypto.createHash('sha256').update(value).digest('base64url').slice(0, 22)}`] : [],
    );
  };

  return {
    max,
    windowMs,

    /** Seconds until every party has room for one more decline; 0 when all have room now. */
    async waitSeconds(parties: DeclineParties): Promise<number> {
      const keys = keysOf(parties);
      const result = await db.execute<{ wait_s: number | null }>(sql`
        select max(ceil(extract(epoch from (${rateLimits.resetAt} - now()))))::int as wait_s
          from ${rateLimits}
         where ${rateLimits.key} in (${sql.join(
           keys.map((k) => sql`${k}`),
           sql`, `,
         )})
           and ${rateLimits.resetAt} > now() and ${rateLimits.count} >= ${max}`);
      const wait = Number(result.rows[0]?.wait_s ?? 0);
      return wait > 0 ? wait : 0;
    },

    /** Counts one decline against every party (a fixed window from its first decline). */
    async spend(parties: DeclineParties): Promise<void> {
      const rows = keysOf(parties)
        .sort()
        .map((k) => ({ k }));
      await db.execute(sql`
        insert into ${rateLimits} as r (key, count, reset_at)
        select t.k, 1, now() + ${windowMs} * interval '1 millisecond'
          from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as t(k text)
          order by t.k
        on conflict (key) do update set
          count = case when r.reset_at <= now() then 1 else r.count + 1 end,
          reset_at = case when r.reset_at <= now() then excluded.reset_at else r.reset_at end`);
    },
  };
}

export type DeclineBudget = ReturnType<typeof createDeclineBudget>;
