/**
 * Errors that mean "the database is not there right now" (refused, reset, timed out, shutting down,
 * too many connections), as opposed to a bad query: callers answer 503 with Retry-After and browsing
 * falls back to the last catalogue snapshot (docs/operations.md, When the database goes away).
 */
const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  '57P01', // admin_shutdown
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now (starting up, recovering)
  '57014', // query_canceled: statement_timeout
  '53300', // too_many_connections
  '08000',
  '08001',
  '08003',
  '08004',
  '08006',
]);

const UNAVAILABLE_MESSAGES =
  /timeout exceeded when trying to connect|Connection terminated|Query read timeout|connection timeout|Client has encountered a connection error|the database system is (starting up|shutting down|in recovery mode)|Cannot use a pool after calling end/i;

/**
 * Errors that mean "the database cannot write right now": disk full (53100), an I/O error (58030), out
 * of memory (53200). Retrying after a while may work; they are the shop's trouble, not the caller's, so
 * they answer 503 + Retry-After like an absent database, never 500.
 */
const STORAGE_CODES = new Set(['53100', '58030', '53200']);

/** The error, or a cause up to three levels down, is a disk-full, I/O or out-of-memory failure. */
export function isStorageFailure(err: unknown): boolean {
  const state = sqlState(err);
  if (state && STORAGE_CODES.has(state)) return true;
  let e: unknown = err;
  for (let depth = 0; depth < 4 && e && typeof e === 'object'; depth++) {
    // The same failures from the file system (outbox, uploads, the health probe).
    const code = (e as { code?: unknown }).code;
    if (code === 'ENOSPC' || code === 'EDQUOT' || code === 'EIO' || code === 'EROFS') return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}

/** The error, or a cause up to three levels down (Drizzle wraps driver errors), says the database is away. */
export function isDatabaseUnavailable(err: unknown): boolean {
  let e: unknown = err;
  for (let depth = 0; depth < 4 && e && typeof e === 'object'; depth++) {
    const { code, message, syscall } = e as { code?: unknown; message?: unknown; syscall?: unknown };
    if (typeof code === 'string' && UNAVAILABLE_CODES.has(code)) return true;
    // The embedded server's Unix socket is gone.
    if (code === 'ENOENT' && syscall === 'connect') return true;
    if (typeof message === 'string' && UNAVAILABLE_MESSAGES.test(message) && !/^Failed query/.test(message)) return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}

/** The PostgreSQL SQLSTATE of an error or its cause. */
export function sqlState(err: unknown): string | null {
  let e: unknown = err;
  for (let depth = 0; depth < 4 && e && typeof e === 'object'; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code;
    e = (e as { cause?: unknown }).cause;
  }
  return null;
}

export function constraintOf(err: unknown): string | null {
  let e: unknown = err;
  for (let depth = 0; depth < 4 && e && typeof e === 'object'; depth++) {
    const c = (e as { constraint?: unknown }).constraint;
    if (typeof c === 'string') return c;
    e = (e as { cause?: unknown }).cause;
  }
  return null;
}
