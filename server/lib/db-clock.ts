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
 * the clock-skew bench give a skewed one); `now()` corrects it by the offset measured at `sync()`.
 */
export function createDbClock(db: DbOrTx, opts: { localNow?: () => number; samples?: number } = {}): DbClock {
  const localNow = opts.localNow ?? Date.now;
  const samples = opts.samples ?? 3;
  let offsetMs = 0;
  let roundTripMs = Number.POSITIVE_INFINITY;

  return {
    now: () => localNow() + offsetMs,
    sqlNow: () => sql`now()`,
    get offsetMs() {
      return offsetMs;
    },
    get roundTripMs() {
      return roundTripMs;
    },
    async sync() {
      let best: { offset: number; rtt: number } | null = null;
      for (let i = 0; i < samples; i++) {
        const sent = localNow();
        const { rows } = await db.execute<{ ms: number | string }>(
          sql`select extract(epoch from clock_timestamp())::float8 * 1000 as ms`,
        );
        const received = localNow();
        const rtt = received - sent;
        // The database read its clock about half-way through the round trip.
        const offset = Number(rows[0]!.ms) - (sent + rtt / 2);
        if (!best || rtt < best.rtt) best = { offset, rtt };
      }
      offsetMs = best!.offset;
      roundTripMs = best!.rtt;
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
