import crypto from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';
import type { FastifyBaseLogger } from 'fastify';
import {
  ADMIN_IDLE_TIMEOUT_MS,
  ADMIN_LOGIN_MAX_FAILURES,
  ADMIN_LOGIN_WINDOW_MS,
} from '../../../common/contracts/admin';
import type { Db } from '../../db/client';
import { HttpError, unauthorized } from '../../plugins/http-error';
import type { SessionData } from '../session/session.tables';
import {
  countFailuresSince,
  deleteLoginAttemptsBefore,
  insertSettingIfAbsent,
  moveShopperRows,
  readSetting,
  recordLoginAttempt,
  revokeAdminSessions,
  writeSetting,
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

export type AdminSessionState = 'active' | 'expired' | 'none';

/** Whether session data carries a live admin login (idle for less than ADMIN_IDLE_TIMEOUT_MS). */
export function adminSessionState(data: SessionData | undefined, now = Date.now()): AdminSessionState {
  const at = data?.admin?.at;
  if (typeof at !== 'number') return 'none';
  return now - at < ADMIN_IDLE_TIMEOUT_MS ? 'active' : 'expired';
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
          await revokeAdminSessions(tx);
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

  /** Refuses with 429 (and Retry-After) when `ip` has used up its failed attempts. */
  async function assertNotLockedOut(ip: string, now: number): Promise<void> {
    const { count, oldest } = await countFailuresSince(db, ip, new Date(now - ADMIN_LOGIN_WINDOW_MS));
    if (count < ADMIN_LOGIN_MAX_FAILURES) return;
    const freeAt = (oldest?.getTime() ?? now) + ADMIN_LOGIN_WINDOW_MS;
    const retryAfter = Math.max(1, Math.ceil((freeAt - now) / 1000));
    const minutes = Math.ceil(retryAfter / 60);
    log.warn({ ip, failures: count }, 'admin login refused: too many failed attempts');
    throw new HttpError(
      429,
      `Too many failed login attempts. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
      { 'retry-after': String(retryAfter) },
    );
  }

  return {
    ensurePassword,
    setPassword,

    /** Checks the password for a client; every attempt is recorded and logged. Throws 401/429. */
    async verifyLogin(ip: string, password: string): Promise<void> {
      const now = Date.now();
      await assertNotLockedOut(ip, now);
      let stored = await readSetting(db, ADMIN_PASSWORD_HASH_KEY);
      // Apps built without main.ts's boot hook (tests, scripts) set the password on first use.
      if (!stored && deps.adminPassword) {
        await ensurePassword();
        stored = await readSetting(db, ADMIN_PASSWORD_HASH_KEY);
      }
      const ok = stored !== null && (await safeVerify(stored, password));
      await recordLoginAttempt(db, ip, ok);
      log.info({ ip, success: ok }, 'admin login attempt');
      if (!ok) throw unauthorized(INVALID_PASSWORD);
    },

    /** The shopper's cart and saved details follow the new session id, together. */
    async moveShopperData(fromSid: string, toSid: string): Promise<void> {
      await db.transaction((tx) => moveShopperRows(tx, fromSid, toSid));
    },

    async pruneLoginAttempts(): Promise<number> {
      return deleteLoginAttemptsBefore(db, new Date(Date.now() - 24 * 60 * 60 * 1000));
    },
  };
}

export type AdminAuthService = ReturnType<typeof createAdminAuthService>;
