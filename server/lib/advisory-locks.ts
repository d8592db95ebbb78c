import { sql, type SQL } from 'drizzle-orm';

/**
 * Every PostgreSQL advisory lock the shop takes, by name. The numbers are what running instances already
 * use: an older instance and a newer one on the same database must still wait for each other, so a value
 * here never changes, and a new lock takes a number no other lock of its space uses
 * (server/lib/advisory-locks.test.ts). PostgreSQL keeps two separate key spaces: one bigint, or two
 * integers (a class and an object); a key of one never meets a key of the other.
 */

/** Session-level locks held by a process, one bigint each (pg_advisory_lock / pg_try_advisory_lock). */
export const PROCESS_LOCKS = {
  /** Migrations: one instance migrates at a time (server/db/migrate.ts). */
  migration: 505050,
  /** The one process owning an embedded data directory, for its whole life (server/db/embedded-postgres.ts). */
  embeddedOwner: 505051,
  /** Held SHARED by every serving instance; `db:restore` takes it EXCLUSIVE (server/db/migrate.ts, backup.ts). */
  shopPresence: 505052,
} as const;

/**
 * Transaction locks in the two-integer space: `pg_advisory_xact_lock(class, hashtext(subject))`, one class
 * per kind of subject.
 */
export const XACT_LOCK_CLASSES = {
  /** A session's checkout holds (checkout.repository.ts): subject = session id. */
  checkoutSession: 5050,
  /** Joins to a drop's line from one network (drops.repository.ts): subject = `productId:address`. */
  dropJoinAddress: 5051,
  /** Reservations of one product's pieces for its waiting list (alerts.service.ts): subject = product id. */
  productReservation: 5057,
} as const;

/**
 * Transaction locks in the bigint space keyed by a hash of text: `hashtextextended(subject, seed)`. The
 * seed keeps each kind's hashes apart from the others'.
 */
export const HASHED_LOCK_SEEDS = {
  /** Purchase-limit claims, one per (product, identity) (purchase-limits.repository.ts). */
  purchaseClaim: 5051,
  /** One session's line of one product in its cart (cart.repository.ts): subject `cart:session:product`. */
  cartLine: 5052,
  /** One session's wishlist (wishlist.repository.ts): subject `wishlist:session`. */
  wishlist: 0,
} as const;

/** The class number as a SQL literal: the statements keep the text they always had (no parameter to type). */
export const lockClass = (name: keyof typeof XACT_LOCK_CLASSES): SQL =>
  sql.raw(String(XACT_LOCK_CLASSES[name]));
/** The hash seed as a SQL literal, like lockClass. */
export const lockSeed = (name: keyof typeof HASHED_LOCK_SEEDS): SQL =>
  sql.raw(String(HASHED_LOCK_SEEDS[name]));
