import { and, desc, eq, isNotNull, isNull, lt, ne, or, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { adminDevices, adminLoginThrottle, appSettings } from './admin.tables';

export async function readSetting(db: DbOrTx, key: string): Promise<string | null> {
  const [row] = await db
    .select({ value: appSettings.value })
    .from(appSettings)
    .where(eq(appSettings.key, key))
    .limit(1);
  return row?.value ?? null;
}

export async function writeSetting(db: DbOrTx, key: string, value: string): Promise<void> {
  await db
    .insert(appSettings)
    .values({ key, value })
    .onConflictDoUpdate({ target: appSettings.key, set: { value, updatedAt: sql`now()` } });
}

/** Inserts only when the key is absent; true when this call stored it (first start races). */
export async function insertSettingIfAbsent(db: DbOrTx, key: string, value: string): Promise<boolean> {
  const rows = await db
    .insert(appSettings)
    .values({ key, value })
    .onConflictDoNothing()
    .returning({ key: appSettings.key });
  return rows.length > 0;
}

/** How fast attempts may come for one throttle key (see admin-auth.service for the numbers). */
export interface ThrottlePolicy {
  /** Attempts allowed back to back before any wait. */
  freeAttempts: number;
  /** Wait after the last free attempt; it doubles with every further attempt (growing) unless `fixed`. */
  baseDelayMs: number;
  maxDelayMs: number;
  fixed?: boolean;
  /** A key that reserved nothing for this long starts again from zero. */
  quietResetMs: number;
}

export const GLOBAL_THROTTLE_KEY = '*';

const ms = (n: number) => sql`(${Math.round(n)}::bigint * interval '1 millisecond')`;

/**
 * `insert … on conflict do update … where next_at <= clock_timestamp()`: reserves one attempt for `key`, or
 * nothing. The time read is the clock's at the row, not `now()` (the transaction's start): a reservation that
 * waited on a racing one's row lock started before that one set next_at, and under load `now()` refused free
 * attempts (27 of 30 got through for 40 at once).
 */
function reserveFor(key: SQL, policy: ThrottlePolicy, when: SQL): SQL {
  const at = sql`clock_timestamp()`;
  const attempts = sql`(case when t.last_at < ${at} - ${ms(policy.quietResetMs)} then 1 else t.attempts + 1 end)`;
  const delay = (n: SQL) =>
    policy.fixed
      ? sql`(case when ${n} < ${policy.freeAttempts} then interval '0' else ${ms(policy.baseDelayMs)} end)`
      : sql`(case when ${n} < ${policy.freeAttempts} then interval '0'
              else least(${ms(policy.maxDelayMs)}, ${ms(policy.baseDelayMs)} * power(2, least(${n} - ${policy.freeAttempts}, 30))) end)`;
  return sql`insert into ${adminLoginThrottle} as t (key, attempts, next_at, last_at)
    select ${key}, 1, ${at} + ${delay(sql`1`)}, ${at} where ${when}
    on conflict (key) do update set attempts = ${attempts}, next_at = ${at} + ${delay(attempts)}, last_at = ${at}
    where t.next_at <= ${at}
    returning t.key`;
}

/**
 * Reserves a login attempt before the password is checked, in ONE statement, so the limit holds under
 * any concurrency and across app instances (the upsert locks the key's row; a racing reservation sees
 * the winner's next_at). The address is reserved first (skipped for a known device), then its network's
 * share when it has one (an IPv6 /48 whose addresses count narrower), then the global key, each only when
 * the one before got through, so refused attempts never use up the wider allowances.
 */
export async function reserveLoginAttempt(
  db: DbOrTx,
  opts: { addressKey: string | null; shareKey?: string | null; address: ThrottlePolicy; share: ThrottlePolicy; global: ThrottlePolicy },
): Promise<{ address: boolean; share: boolean; global: boolean }> {
  const key = opts.addressKey;
  const share = opts.shareKey ?? null;
  const addressPassed = sql`(${key}::text is null or exists (select 1 from addr))`;
  const result = await db.execute(sql`with addr as (
      ${reserveFor(sql`${key}::text`, opts.address, sql`${key}::text is not null`)}
    ), share as (
      ${reserveFor(sql`${share}::text`, opts.share, sql`${share}::text is not null and ${addressPassed}`)}
    ), glob as (
      ${reserveFor(sql`${GLOBAL_THROTTLE_KEY}::text`, opts.global, sql`${addressPassed} and (${share}::text is null or exists (select 1 from share))`)}
    )
    select exists (select 1 from addr) as address, exists (select 1 from share) as share, exists (select 1 from glob) as global`);
  const row = result.rows[0] as { address: boolean; share: boolean; global: boolean };
  return { address: key === null ? true : row.address, share: share === null ? true : row.share, global: row.global };
}

/** Reserves one attempt for a single key (a known device's own budget), or nothing: same one-statement rule. */
export async function reserveKeyAttempt(db: DbOrTx, key: string, policy: ThrottlePolicy): Promise<boolean> {
  const result = await db.execute(reserveFor(sql`${key}::text`, policy, sql`true`));
  return result.rows.length > 0;
}

/** Milliseconds until `key` may try again (0 when it may now). */
export async function waitFor(db: DbOrTx, key: string): Promise<number> {
  const result = await db.execute(
    sql`select greatest(0, ceil(extract(epoch from (next_at - now())) * 1000))::bigint as wait
        from ${adminLoginThrottle} where key = ${key}`,
  );
  const row = result.rows[0] as { wait: string | number } | undefined;
  return row ? Number(row.wait) : 0;
}

/** A successful login is no guess: it gives back the attempt it reserved of a shared allowance (global, a network's share). */
export async function refundAttempt(db: DbOrTx, key: string): Promise<void> {
  await db
    .update(adminLoginThrottle)
    .set({ attempts: sql`greatest(${adminLoginThrottle.attempts} - 1, 0)` })
    .where(eq(adminLoginThrottle.key, key));
}

/** A successful login from an address clears its slow-down. */
export async function clearThrottle(db: DbOrTx, key: string): Promise<void> {
  await db.delete(adminLoginThrottle).where(eq(adminLoginThrottle.key, key));
}

export async function deleteQuietThrottlesBefore(db: DbOrTx, before: Date): Promise<number> {
  const rows = await db
    .delete(adminLoginThrottle)
    .where(and(lt(adminLoginThrottle.lastAt, before), lt(adminLoginThrottle.nextAt, before)))
    .returning({ key: adminLoginThrottle.key });
  return rows.length;
}

// --- Known devices (ADR 012) ----------------------------------------------------------------------

export interface DeviceRow {
  id: string;
  createdAt: Date;
  lastUsedAt: Date;
  lastAgent: string;
  lastNetwork: string;
}

const deviceColumns = {
  id: adminDevices.id,
  createdAt: adminDevices.createdAt,
  lastUsedAt: adminDevices.lastUsedAt,
  lastAgent: adminDevices.lastAgent,
  lastNetwork: adminDevices.lastNetwork,
};

const live = (passwordTag: string) => and(isNull(adminDevices.revokedAt), eq(adminDevices.passwordTag, passwordTag));

export async function insertDevice(
  db: DbOrTx,
  row: { tokenHash: string; passwordTag: string; lastAgent: string; lastNetwork: string },
): Promise<string> {
  const [inserted] = await db.insert(adminDevices).values(row).returning({ id: adminDevices.id });
  return inserted!.id;
}

/** The live device whose token hashes to `tokenHash` under the current password, or null. */
export async function findLiveDevice(db: DbOrTx, tokenHash: string, passwordTag: string): Promise<{ id: string } | null> {
  const [row] = await db
    .select({ id: adminDevices.id })
    .from(adminDevices)
    .where(and(eq(adminDevices.tokenHash, tokenHash), live(passwordTag)))
    .limit(1);
  return row ?? null;
}

export async function touchDevice(db: DbOrTx, id: string, seen: { lastAgent: string; lastNetwork: string }): Promise<void> {
  await db
    .update(adminDevices)
    .set({ ...seen, lastUsedAt: sql`now()` })
    .where(eq(adminDevices.id, id));
}

export async function listLiveDevices(db: DbOrTx, passwordTag: string): Promise<Array<DeviceRow & { tokenHash: string }>> {
  return db
    .select({ ...deviceColumns, tokenHash: adminDevices.tokenHash })
    .from(adminDevices)
    .where(live(passwordTag))
    .orderBy(desc(adminDevices.lastUsedAt))
    .limit(200);
}

/** True when a live device was revoked by this call. */
export async function revokeDevice(db: DbOrTx, id: string): Promise<boolean> {
  const rows = await db
    .update(adminDevices)
    .set({ revokedAt: sql`now()` })
    .where(and(eq(adminDevices.id, id), isNull(adminDevices.revokedAt)))
    .returning({ id: adminDevices.id });
  return rows.length > 0;
}

export async function revokeAllDevices(db: DbOrTx): Promise<void> {
  await db.update(adminDevices).set({ revokedAt: sql`now()` }).where(isNull(adminDevices.revokedAt));
}

/** Devices unused since `before`, revoked, or from an earlier password: no cookie can use them any more. */
export async function deleteDeadDevices(db: DbOrTx, before: Date, passwordTag: string | null): Promise<number> {
  const rows = await db
    .delete(adminDevices)
    .where(
      or(
        lt(adminDevices.lastUsedAt, before),
        isNotNull(adminDevices.revokedAt),
        passwordTag ? ne(adminDevices.passwordTag, passwordTag) : undefined,
      ),
    )
    .returning({ id: adminDevices.id });
  return rows.length;
}
