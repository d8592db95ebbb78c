import crypto from 'node:crypto';
import net from 'node:net';
import { hash, verify } from '@node-rs/argon2';
import Bowser from 'bowser';
import type { FastifyBaseLogger } from 'fastify';
import { ADMIN_IDLE_TIMEOUT_MS, ADMIN_SESSION_MAX_AGE_MS, isUuid } from '../../../common/contracts/admin';
import type { AdminDevice } from '../../../common/contracts/admin-devices';
import type { Db, Tx } from '../../db/client';
import { DEFAULT_IPV6_PREFIX, networkKey as networkOf } from '../../lib/network-address';
import { HttpError, notFound, unauthorized } from '../../lib/http-error';
import {
  clearThrottle,
  deleteDeadDevices,
  deleteQuietThrottlesBefore,
  findLiveDevice,
  GLOBAL_THROTTLE_KEY,
  insertDevice,
  insertSettingIfAbsent,
  listLiveDevices,
  readSetting,
  refundAttempt,
  reserveKeyAttempt,
  reserveLoginAttempt,
  revokeAllDevices,
  revokeDevice,
  touchDevice,
  waitFor,
  writeSetting,
  type ThrottlePolicy,
} from './admin-auth.repository';

export const ADMIN_PASSWORD_HASH_KEY = 'admin_password_hash';
/** A random key, made once per shop, for the keyed hash behind a device's network label. */
const DEVICE_NETWORK_KEY = 'admin_device_network_key';
export const INVALID_PASSWORD = 'Invalid password';
/** The device cookie lives 400 days (the longest browsers keep one); a device unused that long is dead. */
export const DEVICE_COOKIE_MAX_AGE_MS = 400 * 24 * 60 * 60 * 1000;
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
 * Login slow-down (ADR 008, ADR 012). Per client network (IPv4 as is, IPv6 by IPV6_PREFIX, /48, as every
 * other budget of the shop): 5 attempts back to back, then a wait of 1 s that doubles with every further
 * attempt up to 15 minutes (about 100 guesses a day from one network, so one network alone never reaches the
 * global threshold below); the right password is never refused for good.
 * Globally, for every address without a known device: after 30 failed attempts without a 15-minute
 * pause, one attempt per second for the whole shop, which bounds a botnet (a successful login gives
 * its global attempt back). When IPV6_PREFIX counts narrower than /48, the addresses of one /48 together
 * take at most a third of those 30 (NETWORK_SHARE), so one /48 alone cannot put the shop into its
 * slow-down either. A known device (a server-side record made by a successful login, ADR 012)
 * skips all of them and has a budget of its own with the per-address numbers, so nobody without that
 * device's token can slow its owner down, and a stolen device token is itself slowed.
 */
export const ADDRESS_THROTTLE: ThrottlePolicy = {
  freeAttempts: 5,
  baseDelayMs: 1000,
  maxDelayMs: 15 * 60 * 1000,
  quietResetMs: 60 * 60 * 1000,
};
export const DEVICE_THROTTLE: ThrottlePolicy = { ...ADDRESS_THROTTLE };
export const GLOBAL_THROTTLE: ThrottlePolicy = {
  freeAttempts: 30,
  baseDelayMs: 1000,
  maxDelayMs: 1000,
  fixed: true,
  quietResetMs: 15 * 60 * 1000,
};
/** One /48's share of the global attempts: 10 back to back, then the address's doubling wait (about 20 in the first quarter hour). */
export const NETWORK_SHARE: ThrottlePolicy = { ...ADDRESS_THROTTLE, freeAttempts: 10 };

/** The prefix one subscriber is normally given at most (docs/security.md, "Why /48"): the unit of NETWORK_SHARE. */
const SHARE_PREFIX = 48;

const bareAddress = (ip: string) => ip.trim().split('%')[0]!;

/**
 * The client network an attempt is counted against (server/lib/network-address.ts): IPv4 as is, IPv6 by
 * `ipv6Prefix` (IPV6_PREFIX, default /48: one subscriber is delegated a whole /48–/56, so counting /64s
 * would give an attacker thousands of networks).
 */
export function loginAddressKey(ip: string, ipv6Prefix = DEFAULT_IPV6_PREFIX): string {
  // Not an address (only a misconfigured proxy trust lets a client pick this): never '*', a share or a device key.
  if (!net.isIP(bareAddress(ip))) return `other:${ip.slice(0, 100)}`;
  return networkOf(ip, ipv6Prefix);
}

/** The /48 whose share an attempt also takes, when its address counts narrower (IPV6_PREFIX above 48); else null. */
export function loginShareKey(ip: string, ipv6Prefix = DEFAULT_IPV6_PREFIX): string | null {
  if (ipv6Prefix <= SHARE_PREFIX || !net.isIPv6(bareAddress(ip))) return null;
  const network = networkOf(ip, SHARE_PREFIX);
  // An IPv4-mapped address is counted as its IPv4: no /48.
  return network.includes('/') ? `share:${network}` : null;
}

/** The throttle key of a known device's own budget. */
export const deviceThrottleKey = (deviceId: string) => `device:${deviceId}`;

const sha256 = (s: string) => crypto.createHash('sha256').update(s).digest('base64url');
/** Ties devices to one password hash: a changed password, by any route, retires them all. */
const passwordTagOf = (storedHash: string | null) => (storedHash ? sha256(`fifty:device-password-tag:${storedHash}`).slice(0, 22) : '');

/** "Firefox on macOS": the browser family and OS only (no versions), from the user agent. */
export function describeAgent(userAgent: string | undefined): string {
  if (!userAgent) return 'Unknown browser';
  const { browser, os } = Bowser.parse(userAgent.slice(0, 512));
  const name = browser.name || 'Unknown browser';
  return os.name ? `${name} on ${os.name}` : name;
}

function retryMessage(ms: number, scope: 'address' | 'network' | 'global'): { message: string; retryAfter: number } {
  const retryAfter = Math.max(1, Math.ceil(ms / 1000));
  const when =
    retryAfter < 60
      ? `${retryAfter} second${retryAfter === 1 ? '' : 's'}`
      : `${Math.ceil(retryAfter / 60)} minute${Math.ceil(retryAfter / 60) === 1 ? '' : 's'}`;
  return {
    retryAfter,
    message:
      scope !== 'global'
        ? `Too many failed login attempts. Try again in ${when}.`
        : `Too many login attempts on this shop right now. Try again in ${when}.`,
  };
}

export type AdminSessionState = 'active' | 'expired' | 'none';

/** The admin's part of a session's data (the session module stores it as is): at, last activity; since, the login. */
export interface AdminSessionData {
  admin?: { at: number; since?: number };
  [key: string]: unknown;
}

/** What admin needs of the session module (its revokeAdminLogins fits it): log every admin out, in the caller's transaction. */
export interface AdminSessions {
  revokeAdminLogins(tx: Tx): Promise<void>;
}

/**
 * Whether session data carries a live admin login: idle for less than ADMIN_IDLE_TIMEOUT_MS, and
 * logged in less than ADMIN_SESSION_MAX_AGE_MS ago however active (a stolen session does not live on).
 */
export function adminSessionState(data: AdminSessionData | undefined, now = Date.now()): AdminSessionState {
  const at = data?.admin?.at;
  if (typeof at !== 'number') return 'none';
  // Sessions from before the absolute lifetime existed count from their last activity.
  const since = data?.admin?.since ?? at;
  return now - at < ADMIN_IDLE_TIMEOUT_MS && now - since < ADMIN_SESSION_MAX_AGE_MS ? 'active' : 'expired';
}

/** Whether the stamp is old enough to be worth writing again. */
export function needsActivityRefresh(data: AdminSessionData, now = Date.now()): boolean {
  return now - (data.admin?.at ?? 0) >= ACTIVITY_REFRESH_MS;
}

export function createAdminAuthService(deps: {
  db: Db;
  adminPassword?: string;
  /** IPv6 addresses count by this prefix (IPV6_PREFIX, default 48). */
  ipv6Prefix?: number;
  log: FastifyBaseLogger;
  sessions: AdminSessions;
}) {
  const { db, log } = deps;
  const ipv6Prefix = deps.ipv6Prefix ?? DEFAULT_IPV6_PREFIX;

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
          await deps.sessions.revokeAdminLogins(tx);
          // Known devices too (they would no longer match the password tag anyway; this shows it).
          await revokeAllDevices(tx);
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

  function slowedDown(wait: number, scope: 'address' | 'network' | 'global', knownDevice: boolean): HttpError {
    const { message, retryAfter } = retryMessage(wait, scope);
    // No address in the log: logs are kept and shipped, addresses are personal data.
    log.warn({ scope: knownDevice ? 'device' : scope, knownDevice, retryAfter }, 'admin login slowed down');
    return new HttpError(429, message, { 'retry-after': String(retryAfter) });
  }

  /**
   * Reserves the attempt or refuses with 429 and Retry-After: a known device from its own budget only;
   * anyone else from the address's, then its /48's share (if it has one), then the global one, each only if
   * the one before let it through.
   */
  async function reserveAttempt(addressKey: string, shareKey: string | null, deviceId: string | null): Promise<void> {
    if (deviceId) {
      const key = deviceThrottleKey(deviceId);
      if (await reserveKeyAttempt(db, key, DEVICE_THROTTLE)) return;
      throw slowedDown(await waitFor(db, key), 'address', true);
    }
    const got = await reserveLoginAttempt(db, { addressKey, shareKey, address: ADDRESS_THROTTLE, share: NETWORK_SHARE, global: GLOBAL_THROTTLE });
    if (got.address && got.share && got.global) return;
    if (!got.address) throw slowedDown(await waitFor(db, addressKey), 'address', false);
    if (!got.share) throw slowedDown(await waitFor(db, shareKey!), 'network', false);
    throw slowedDown(await waitFor(db, GLOBAL_THROTTLE_KEY), 'global', false);
  }

  let networkKey: Buffer | null = null;
  /** 6 hex characters of a keyed hash of the network (IPv6 by IPV6_PREFIX): about 1 in 16 million, naming no one. */
  async function networkLabel(addressKey: string): Promise<string> {
    if (!networkKey) {
      await insertSettingIfAbsent(db, DEVICE_NETWORK_KEY, crypto.randomBytes(32).toString('base64url'));
      networkKey = Buffer.from((await readSetting(db, DEVICE_NETWORK_KEY))!, 'base64url');
    }
    return crypto.createHmac('sha256', networkKey).update(addressKey).digest('hex').slice(0, 6);
  }

  return {
    ensurePassword,
    setPassword,

    /**
     * Checks the password for a client. The attempt is reserved before argon2 runs, so parallel
     * guesses cannot slip past the limit. `deviceToken`: the token of the browser's device cookie, if
     * any; it counts only when it names a live device record (ADR 012). On success, answers the device
     * token the browser should keep: the same one, or a new device's when it had none that counts.
     */
    async verifyLogin(
      ip: string,
      password: string,
      opts: { deviceToken?: string | null; userAgent?: string } = {},
    ): Promise<{ deviceToken: string }> {
      const addressKey = loginAddressKey(ip, ipv6Prefix);
      const shareKey = loginShareKey(ip, ipv6Prefix);
      const readHash = async () => {
        const found = await readSetting(db, ADMIN_PASSWORD_HASH_KEY);
        // Apps built without main.ts's boot hook (tests, scripts) set the password on first use.
        if (found || !deps.adminPassword) return found;
        await ensurePassword();
        return readSetting(db, ADMIN_PASSWORD_HASH_KEY);
      };
      // Without a device cookie the attempt is reserved first thing, so a burst is counted as it arrives.
      let stored = opts.deviceToken ? await readHash() : null;
      const device = opts.deviceToken ? await findLiveDevice(db, sha256(opts.deviceToken), passwordTagOf(stored)) : null;
      const knownDevice = device !== null;
      await reserveAttempt(addressKey, shareKey, device?.id ?? null);
      if (!opts.deviceToken) stored = await readHash();
      const tag = passwordTagOf(stored);
      const ok = stored !== null && (await safeVerify(stored, password));
      log.info({ success: ok, knownDevice }, 'admin login attempt');
      if (!ok) throw unauthorized(INVALID_PASSWORD);
      const seen = { lastAgent: describeAgent(opts.userAgent), lastNetwork: await networkLabel(addressKey) };
      if (device) {
        await clearThrottle(db, deviceThrottleKey(device.id));
        await touchDevice(db, device.id, seen);
        return { deviceToken: opts.deviceToken! };
      }
      await refundAttempt(db, GLOBAL_THROTTLE_KEY);
      if (shareKey) await refundAttempt(db, shareKey);
      await clearThrottle(db, addressKey);
      // 256 random bits; only their hash is stored, so the table alone lets nobody forge the cookie.
      const token = crypto.randomBytes(32).toString('base64url');
      await insertDevice(db, { tokenHash: sha256(token), passwordTag: tag, ...seen });
      return { deviceToken: token };
    },

    /** The live devices, most recently used first; `current` marks the one whose token is `currentToken`. */
    async listDevices(currentToken: string | null): Promise<AdminDevice[]> {
      const tag = passwordTagOf(await readSetting(db, ADMIN_PASSWORD_HASH_KEY));
      const mine = currentToken ? sha256(currentToken) : null;
      const rows = await listLiveDevices(db, tag);
      return rows.map(({ tokenHash, createdAt, lastUsedAt, ...rest }) => ({
        ...rest,
        createdAt: createdAt.toISOString(),
        lastUsedAt: lastUsedAt.toISOString(),
        current: tokenHash === mine,
      }));
    },

    /** Revokes one device: its cookie no longer counts (404 when there is no such live device). */
    async revokeDevice(id: string): Promise<void> {
      if (!isUuid(id) || !(await revokeDevice(db, id))) throw notFound('Device not found');
      await clearThrottle(db, deviceThrottleKey(id));
      log.info({ event: 'admin-device-revoked' }, 'admin device revoked');
    },

    /** Throttle rows quiet for a day are back to zero anyway; dead devices can never count again. */
    async pruneLoginAttempts(): Promise<number> {
      const throttles = await deleteQuietThrottlesBefore(db, new Date(Date.now() - 24 * 60 * 60 * 1000));
      const tag = passwordTagOf(await readSetting(db, ADMIN_PASSWORD_HASH_KEY));
      const devices = await deleteDeadDevices(db, new Date(Date.now() - DEVICE_COOKIE_MAX_AGE_MS), tag || null);
      return throttles + devices;
    },
  };
}

export type AdminAuthService = ReturnType<typeof createAdminAuthService>;
