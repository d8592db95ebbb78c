import crypto from 'node:crypto';
import net from 'node:net';
import { hash, verify } from '@node-rs/argon2';
import type { FastifyBaseLogger } from 'fastify';
import { ADMIN_IDLE_TIMEOUT_MS, ADMIN_SESSION_MAX_AGE_MS } from '../../../common/contracts/admin';
import type { Db } from '../../db/client';
import { HttpError, unauthorized } from '../../plugins/http-error';
import { revokeAdminLogins, type SessionData } from '../session/session.service';
import {
  clearThrottle,
  deleteQuietThrottlesBefore,
  GLOBAL_THROTTLE_KEY,
  insertSettingIfAbsent,
  readSetting,
  refundGlobalAttempt,
  reserveLoginAttempt,
  waitFor,
  writeSetting,
  type ThrottlePolicy,
} from './admin-auth.repository';

export const ADMIN_PASSWORD_HASH_KEY = 'admin_password_hash';
export const INVALID_PASSWORD = 'Invalid password';
/** Refresh the admin's activity stamp at most this often, so reads stay cheap. */
const ACTIVITY_REFRESH_MS = 60 * 1000;

/** A random password that survives being read aloud or typed: 20 URL-safe characters (120 bits). */
export function generatePassword(): string {
  return crypto.randomBytes(15).toString('base64url');
}

export function hashPassword(password: string): Promise<string> {
  return hash(password);
}

async function safeVerify(stored: string, password: string): Promise<boolean> {
  try {
    return await verify(stored, password);
  } catch {
    return false;
  }
}

/**
 * Login slow-down (issue 11). Per client address: 5 attempts back to back, then a wait of 1 s that
 * doubles with every further attempt up to 15 minutes (about 100 guesses a day from one address); the
 * right password is never refused for good, and a device that has logged in before skips this part.
 * Globally, for every address and device: after 30 failed attempts without a 15-minute pause, one
 * attempt per second for the whole shop, which bounds a botnet without locking the owner out
 * (a successful login gives its global attempt back).
 */
export const ADDRESS_THROTTLE: ThrottlePolicy = {
  freeAttempts: 5,
  baseDelayMs: 1000,
  maxDelayMs: 15 * 60 * 1000,
  quietResetMs: 60 * 60 * 1000,
};
export const GLOBAL_THROTTLE: ThrottlePolicy = {
  freeAttempts: 30,
  baseDelayMs: 1000,
  maxDelayMs: 1000,
  fixed: true,
  quietResetMs: 15 * 60 * 1000,
};

/**
 * The client address an attempt is counted against: IPv4 as is, IPv6 by its /64 (one subscriber
 * usually holds a whole /64, so counting single addresses would give an attacker 2^64 of them).
 */
export function loginAddressKey(ip: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped) return mapped[1]!;
  if (net.isIPv6(ip)) {
    const [head = '', tail = ''] = ip.split('%')[0]!.toLowerCase().split('::');
    const left = head ? head.split(':') : [];
    const right = ip.includes('::') && tail ? tail.split(':') : [];
    // An embedded IPv4 tail (::a.b.c.d) lies beyond the first 64 bits, so it can be dropped.
    const groups = [...left, ...Array<string>(Math.max(0, 8 - left.length - right.length)).fill('0'), ...right];
    return `${groups
      .slice(0, 4)
      .map((g) => g.replace(/^0+(?=.)/, ''))
      .join(':')}::/64`;
  }
  return ip;
}

function retryMessage(ms: number, scope: 'address' | 'global'): { message: string; retryAfter: number } {
  const retryAfter = Math.max(1, Math.ceil(ms / 1000));
  const when =
    retryAfter < 60
      ? `${retryAfter} second${retryAfter === 1 ? '' : 's'}`
      : `${Math.ceil(retryAfter / 60)} minute${Math.ceil(retryAfter / 60) === 1 ? '' : 's'}`;
  return {
    retryAfter,
    message:
      scope === 'address'
        ? `Too many failed login attempts. Try again in ${when}.`
        : `Too many login attempts on this shop right now. Try again in ${when}.`,
  };
}

export type AdminSessionState = 'active' | 'expired' | 'none';

/**
 * Whether session data carries a live admin login: idle for less than ADMIN_IDLE_TIMEOUT_MS, and
 * logged in less than ADMIN_SESSION_MAX_AGE_MS ago however active (a stolen session does not live on).
 */
export function adminSessionState(data: SessionData | undefined, now = Date.now()): AdminSessionState {
  const at = data?.admin?.at;
  if (typeof at !== 'number') return 'none';
  // Sessions from before the absolute lifetime existed count from their last activity.
  const since = data?.admin?.since ?? at;
  return now - at < ADMIN_IDLE_TIMEOUT_MS && now - since < ADMIN_SESSION_MAX_AGE_MS ? 'active' : 'expired';
}

/** Whether the stamp is old enough to be worth writing again. */
export function needsActivityRefresh(data: SessionData, now = Date.now()): boolean {
  return now - (data.admin?.at ?? 0) >= ACTIVITY_REFRESH_MS;
}

export function createAdminAuthService(deps: { db: Db; adminPassword?: string; log: FastifyBaseLogger }) {
  const { db, log } = deps;

  async function setPassword(password: string): Promise<void> {
    await writeSetting(db, ADMIN_PASSWORD_HASH_KEY, await hashPassword(password));
  }

  /**
   * Start-up: ADMIN_PASSWORD wins (its hash is stored or updated); without it a password is
   * generated on the very first start and returned once so it can be printed. Only hashes are stored.
   */
  async function ensurePassword(): Promise<{ generated: string | null }> {
    const stored = await readSetting(db, ADMIN_PASSWORD_HASH_KEY);
    if (deps.adminPassword) {
      if (!stored) await setPassword(deps.adminPassword);
      else if (!(await safeVerify(stored, deps.adminPassword))) {
        // A changed password logs out whoever was logged in with the old one.
        const hashed = await hashPassword(deps.adminPassword);
        await db.transaction(async (tx) => {
          await writeSetting(tx, ADMIN_PASSWORD_HASH_KEY, hashed);
          await revokeAdminLogins(tx);
        });
      }
      return { generated: null };
    }
    if (stored) return { generated: null };
    const password = generatePassword();
    // Another instance starting at the same moment may win; only the stored one is shown.
    const inserted = await insertSettingIfAbsent(db, ADMIN_PASSWORD_HASH_KEY, await hashPassword(password));
    return { generated: inserted ? password : null };
  }

  /** Reserves the attempt (address, then global) or refuses with 429 and Retry-After. */
  async function reserveAttempt(addressKey: string, knownDevice: boolean): Promise<void> {
    const got = await reserveLoginAttempt(db, {
      addressKey: knownDevice ? null : addressKey,
      address: ADDRESS_THROTTLE,
      global: GLOBAL_THROTTLE,
    });
    if (got.address && got.global) return;
    const scope = got.address ? 'global' : 'address';
    const wait = await waitFor(db, scope === 'global' ? GLOBAL_THROTTLE_KEY : addressKey);
    const { message, retryAfter } = retryMessage(wait, scope);
    // No address in the log: logs are kept and shipped, addresses are personal data.
    log.warn({ scope, knownDevice, retryAfter }, 'admin login slowed down');
    throw new HttpError(429, message, { 'retry-after': String(retryAfter) });
  }

  return {
    ensurePassword,
    setPassword,

    /**
     * Checks the password for a client. The attempt is reserved before argon2 runs, so parallel
     * guesses cannot slip past the limit. `knownDevice`: the browser carries the signed cookie of an
     * earlier successful login, which skips the per-address slow-down (not the global one).
     */
    async verifyLogin(ip: string, password: string, opts: { knownDevice?: boolean } = {}): Promise<void> {
      const addressKey = loginAddressKey(ip);
      const knownDevice = opts.knownDevice ?? false;
      await reserveAttempt(addressKey, knownDevice);
      let stored = await readSetting(db, ADMIN_PASSWORD_HASH_KEY);
      // Apps built without main.ts's boot hook (tests, scripts) set the password on first use.
      if (!stored && deps.adminPassword) {
        await ensurePassword();
        stored = await readSetting(db, ADMIN_PASSWORD_HASH_KEY);
      }
      const ok = stored !== null && (await safeVerify(stored, password));
      log.info({ success: ok, knownDevice }, 'admin login attempt');
      if (!ok) throw unauthorized(INVALID_PASSWORD);
      await refundGlobalAttempt(db);
      if (!knownDevice) await clearThrottle(db, addressKey);
    },

    /** Throttle rows quiet for a day are back to zero anyway. */
    async pruneLoginAttempts(): Promise<number> {
      return deleteQuietThrottlesBefore(db, new Date(Date.now() - 24 * 60 * 60 * 1000));
    },
  };
}

export type AdminAuthService = ReturnType<typeof createAdminAuthService>;
