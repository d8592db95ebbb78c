import fs from 'node:fs';
import { sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../db/client';

/**
 * The one clock of drop-day decisions (release, pass required, pass expiry, hold expiry, admission;
 * docs/decisions/010-fair-waiting-room.md "One clock"): the database's. Statements that decide use
 * `sqlNow()` (PostgreSQL's `now()` in production); code that must decide in the app uses `now()`,
 * the app's clock plus the offset to the database's, learned with `select clock_timestamp()`.
 * So instances whose own clocks disagree by minutes still agree to within a round trip.
 */
export interface Clock {
  /** The database's time, in ms since the epoch. */
  now(): number;
  /** The same instant as SQL, for statements that decide (`now()` for the database's own clock). */
  sqlNow(): SQL;
}

export interface DbClock extends Clock {
  /** Measures the offset again (a few `select clock_timestamp()`, the one with the shortest round trip wins). */
  sync(): Promise<void>;
  /** Database time minus this app's time, in ms, as last measured. */
  readonly offsetMs: number;
  /** The round trip of the measurement that set the offset (its error is at most half of it). */
  readonly roundTripMs: number;
}

/**
 * The database clock of one app instance. `localNow` is this instance's own clock (Date.now; tests and
 * the clock-skew bench give a skewed one), read only to report `offsetMs`. `now()` is the database's time
 * read at `sync()`, carried forward by the monotonic clock (`elapsedNow`, performance.now): a step of the
 * host's clock (NTP, a VM resumed, an operator's `date -s`) between two syncs moves nothing, so a hold
 * taken after the host's clock jumped back 90 s still lasts its full time.
 */
export function createDbClock(
  db: DbOrTx,
  opts: { localNow?: () => number; elapsedNow?: () => number; samples?: number } = {},
): DbClock {
  const localNow = opts.localNow ?? Date.now;
  const elapsedNow = opts.elapsedNow ?? (() => performance.now());
  const samples = opts.samples ?? 3;
  let offsetMs = 0;
  let roundTripMs = Number.POSITIVE_INFINITY;
  // The database's time (before the first sync: this instance's own) at a reading of the monotonic clock.
  let anchor = { at: localNow(), elapsed: elapsedNow() };

  return {
    now: () => anchor.at + (elapsedNow() - anchor.elapsed),
    sqlNow: () => sql`now()`,
    get offsetMs() {
      return offsetMs;
    },
    get roundTripMs() {
      return roundTripMs;
    },
    async sync() {
      let best: { offset: number; rtt: number; db: number; elapsed: number } | null = null;
      for (let i = 0; i < samples; i++) {
        const sentLocal = localNow();
        const sent = elapsedNow();
        const { rows } = await db.execute<{ ms: number | string }>(
          sql`select extract(epoch from clock_timestamp())::float8 * 1000 as ms`,
        );
        const rtt = elapsedNow() - sent;
        // The database read its clock about half-way through the round trip.
        const dbMs = Number(rows[0]!.ms);
        const offset = dbMs - (sentLocal + rtt / 2);
        if (!best || rtt < best.rtt) best = { offset, rtt, db: dbMs, elapsed: sent + rtt / 2 };
      }
      offsetMs = best!.offset;
      roundTripMs = best!.rtt;
      anchor = { at: best!.db, elapsed: best!.elapsed };
    },
  };
}

/** A clock a test sets and moves by hand; statements see the same instant (a literal instead of `now()`). */
export interface ManualClock extends Clock {
  set(ms: number): void;
  advance(ms: number): void;
}

export function createManualClock(startMs: number): ManualClock {
  let t = startMs;
  return {
    now: () => t,
    sqlNow: () => sql`${new Date(t).toISOString()}::timestamptz`,
    set(ms) {
      t = ms;
    },
    advance(ms) {
      t += ms;
    },
  };
}

/** This machine's own clock: only for services built without the database's (unit wiring, scripts). */
export const systemClock: Clock = { now: () => Date.now(), sqlNow: () => sql`now()` };

/**
 * A clock a browser test moves forward while a spawned shop runs (`TEST_CLOCK_FILE`, refused in
 * production): `base` plus the shift the file holds, in ms, for the app (`now()`) and for statements
 * (`sqlNow()`) alike, so the one clock stays one. A test lets a pass lapse or a draw's window close by
 * writing a larger shift instead of waiting (tests/support/private-shop.ts `moveClock`). Everything
 * else of `base` (its `sync`, its measured offset) is reached through the prototype.
 */
export function createSteeredClock<C extends Clock>(base: C, shiftMs: () => number): C {
  return Object.create(base, {
    now: { value: () => base.now() + shiftMs() },
    sqlNow: {
      value: () => {
        const shift = shiftMs();
        return shift === 0 ? base.sqlNow() : sql`(${base.sqlNow()} + ${shift} * interval '1 millisecond')`;
      },
    },
  }) as C;
}

/**
 * The shift in a clock file: whole ms as text, 0 while the file is missing or holds anything else. Read
 * again at each use: a test-only shop, where a few microseconds a read cost nothing.
 */
export function shiftFromFile(file: string): () => number {
  return () => {
    let text: string;
    try {
      text = fs.readFileSync(file, 'utf8').trim();
    } catch {
      return 0;
    }
    return /^-?\d{1,15}$/.test(text) ? Number(text) : 0;
  };
}
