/**
 * What the logs may hold (issue 12 item 5): no personal data, no secrets, no SQL parameters.
 * pino `redact` censors known fields at any of the first levels of a log line; the error serializer
 * rebuilds errors from safe fields only (a Drizzle query error carries its parameters in its message,
 * stack and `params`; a PostgreSQL error quotes values in its message and `detail`).
 */

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

/** Values PostgreSQL and drivers quote inside messages ('invalid input syntax for type uuid: "…"'). */
function scrubMessage(message: string): string {
  return message
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

/** pino options for every logger of the shop (merged with the caller's level or stream). */
export const safeLoggerOptions = {
  redact: { paths: REDACT_PATHS, censor: '[redacted]' },
  serializers: { err: serializeErrorSafely, error: serializeErrorSafely },
};
