/**
 * What the logs may hold (docs/security.md §4, Logs): no personal data, no secrets, no SQL parameters.
 * pino `redact` censors known fields at any of the first levels of a log line; the error serializer
 * rebuilds errors from safe fields only (a Drizzle query error carries its parameters in its message,
 * stack and `params`; a PostgreSQL error quotes values in its message and `detail`).
 */
import type { FastifyBaseLogger, FastifyServerOptions } from 'fastify';

type FastifyChildLoggerFactory = NonNullable<FastifyServerOptions['childLoggerFactory']>;

type Bindings = Parameters<FastifyChildLoggerFactory>[1];
type ChildLoggerOptions = Parameters<FastifyChildLoggerFactory>[2];

const SENSITIVE_KEYS = [
  'email',
  'customerEmail',
  'firstName',
  'lastName',
  'customerFirstName',
  'customerLastName',
  'phone',
  'customerPhone',
  'shippingAddress',
  'shippingCity',
  'shippingState',
  'shippingZip',
  'address',
  'customer',
  'sessionId',
  'session_id',
  'cardNumber',
  'cvc',
  'expiry',
  'clientSecret',
  'client_secret',
  'password',
  'token',
  'secret',
  'params',
  'parameters',
  'cookie',
  'authorization',
  'set-cookie',
  'stripe-signature',
  // Client addresses (the request serializer drops them; these catch any other log line) and link secrets.
  'ip',
  'ips',
  'remoteAddress',
  'remotePort',
  'claim',
  'claimToken',
  'unsubscribeToken',
];

export const REDACT_PATHS: string[] = SENSITIVE_KEYS.flatMap((key) => {
  const k = /^[A-Za-z_$][\w$]*$/.test(key) ? key : `["${key}"]`;
  const dot = k.startsWith('[') ? '' : '.';
  return [k, `*${dot}${k}`, `*.*${dot}${k}`, `*.*.*${dot}${k}`];
});

interface SafeError {
  [key: string]: unknown;
  type: string;
  message: string;
  stack: string;
  code?: string;
  severity?: string;
  constraint?: string;
  table?: string;
  column?: string;
  routine?: string;
  statusCode?: number;
  cause?: SafeError;
}

/**
 * Secrets that ride in URLs: every query string (?token=, ?claim=, an order page's ?key=) and the token of a
 * claim or draw-entry path.
 */
export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  const path = q < 0 ? url : url.slice(0, q);
  // A draw entry's token is the only key to the entry: its page and its API path both carry it.
  return (
    path.replace(/^(\/api\/alerts\/claim|\/api\/draw-entries|\/draw-entry)\/[^/]+/i, '$1/[redacted]') + (q < 0 ? '' : '?[redacted]')
  );
}

const EMAIL = /[^\s<>"'(),;:@]+@[^\s<>"'(),;:@]+\.[A-Za-z]{2,}/g;
const IPV4 = /\b(?:\d{1,3}\.){3}\d{1,3}\b/g;
// Two to seven groups of hex with a '::', or three or more colons (a clock time "16:22:28" is neither).
const IPV6 = /(?<![\w:])(?:[0-9A-Fa-f]{0,4}:){2,7}[0-9A-Fa-f]{0,4}(?![\w:])/g;
const QUERY = /(\/[^\s?"'<>]*)\?[^\s"'<>]+/g;

/** Text of any log line (messages, error messages): no query strings, e-mail or network addresses. */
export function scrubText(text: string): string {
  return text
    .replace(QUERY, '$1?[redacted]')
    .replace(/(\/api\/alerts\/claim)\/[^\s/?"'<>]+/g, '$1/[redacted]')
    .replace(EMAIL, '[redacted e-mail]')
    .replace(IPV4, '[redacted address]')
    .replace(IPV6, (m) => (m.includes('::') || m.split(':').length > 3 ? '[redacted address]' : m));
}

/** Values PostgreSQL and drivers quote inside messages ('invalid input syntax for type uuid: "…"'). */
function scrubMessage(message: string): string {
  return scrubText(message)
    .replace(/\nparams: [\s\S]*$/, '\nparams: [redacted]')
    .replace(/"[^"]*"/g, (m) => (m.length > 40 || /[@\s\d]/.test(m) ? '"[redacted]"' : m))
    .replace(/\(([^()]*)\)=\(([^()]*)\)/g, '($1)=([redacted])');
}

export function serializeErrorSafely(err: unknown, depth = 0): SafeError {
  if (typeof err !== 'object' || err === null)
    return { type: typeof err, message: scrubMessage(String(err)), stack: '' };
  const e = err as Error & Record<string, unknown>;
  const out: SafeError = {
    type: e.constructor?.name ?? 'Error',
    message: typeof e.message === 'string' ? scrubMessage(e.message) : '',
    stack: '',
  };
  if (typeof e.query === 'string') out.message = `Failed query: ${e.query}`;
  for (const key of ['code', 'severity', 'constraint', 'table', 'column', 'routine'] as const) {
    if (typeof e[key] === 'string') out[key] = e[key];
  }
  if (typeof e.statusCode === 'number') out.statusCode = e.statusCode;
  if (typeof e.stack === 'string') {
    // The stack starts with the message: keep only its frames.
    const frames = e.stack.split('\n').filter((line) => /^\s+at /.test(line));
    out.stack = [`${out.type}: ${out.message}`, ...frames].join('\n');
  }
  if (e.cause && depth < 3) out.cause = serializeErrorSafely(e.cause, depth + 1);
  return out;
}

/**
 * A request in a log line (Fastify's 'incoming request' at debug, errors at any level): its method and its
 * URL without the query string or a token in the path. No client address, port or host.
 */
export function serializeRequestSafely(req: { method?: string; url?: string }): { method?: string; url?: string } {
  return { method: req.method, url: typeof req.url === 'string' ? redactUrl(req.url) : undefined };
}

/** pino options for every logger of the shop (merged with the caller's level or stream). */
export const safeLoggerOptions = {
  redact: { paths: REDACT_PATHS, censor: '[redacted]' },
  serializers: { err: serializeErrorSafely, error: serializeErrorSafely, req: serializeRequestSafely },
  hooks: {
    /** Message strings are not fields: they are scrubbed too (a URL, an address or an e-mail written into one). */
    logMethod(this: unknown, args: unknown[], method: (...a: unknown[]) => void): void {
      // Fastify's own 'Server listening at http://…' names this server's address, not a client's.
      method.apply(
        this,
        args.map((a) => (typeof a === 'string' && !a.startsWith('Server listening at ') ? scrubText(a) : a)),
      );
    },
  },
};

type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace';
type LogFn = (...args: unknown[]) => void;

/**
 * A request's logger, made when a line is first written at an enabled level (bench/README.md,
 * "Every hook earns its cost"). Fastify makes a child logger for every request to carry its reqId, and
 * with `redact` configured pino runs the redaction over the child's bindings as it is made: the largest
 * per-request cost of a catalogue read, for a logger almost no request uses
 * (request logging is off below debug). Lines written still carry the reqId, redacted as before.
 */
class LazyRequestLogger {
  private made: FastifyBaseLogger | null = null;

  constructor(
    private readonly parent: FastifyBaseLogger,
    private readonly bindings: Bindings,
    private readonly opts: ChildLoggerOptions,
  ) {}

  private real(): FastifyBaseLogger {
    return (this.made ??= this.parent.child(this.bindings, this.opts));
  }

  private write(level: LogLevel, args: unknown[]): void {
    // A level the parent drops, with no level of the route's own: nothing to make, nothing to write.
    if (this.made === null && this.opts.level === undefined && !(this.parent as unknown as PinoLike).isLevelEnabled(level)) return;
    (this.real()[level] as LogFn)(...args);
  }

  get level(): string {
    return this.made ? this.made.level : (this.opts.level ?? this.parent.level);
  }

  set level(level: string) {
    this.real().level = level;
  }

  fatal(...args: unknown[]): void {
    this.write('fatal', args);
  }
  error(...args: unknown[]): void {
    this.write('error', args);
  }
  warn(...args: unknown[]): void {
    this.write('warn', args);
  }
  info(...args: unknown[]): void {
    this.write('info', args);
  }
  debug(...args: unknown[]): void {
    this.write('debug', args);
  }
  trace(...args: unknown[]): void {
    this.write('trace', args);
  }
  silent(): void {}

  isLevelEnabled(level: string): boolean {
    return ((this.made ?? this.parent) as unknown as PinoLike).isLevelEnabled(level);
  }

  child(bindings: Bindings, opts?: ChildLoggerOptions): FastifyBaseLogger {
    return this.real().child(bindings, opts);
  }
}

interface PinoLike {
  isLevelEnabled(level: string): boolean;
}

/** Fastify's `childLoggerFactory`: every request's logger is a LazyRequestLogger over the shop's pino logger. */
export const lazyChildLoggerFactory: FastifyChildLoggerFactory = (logger, bindings, opts) =>
  new LazyRequestLogger(logger, bindings, opts) as unknown as FastifyBaseLogger;
