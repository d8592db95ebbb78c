import fs from 'node:fs/promises';
import path from 'node:path';
import crypto from 'node:crypto';

import type { Mailer, MailMessage } from '../../lib/mailer';

// The port lives in server/lib/mailer.ts; re-exported here so existing imports keep compiling.
export type { Mailer, MailMessage };

export interface MailerOptions {
  smtpUrl?: string;
  from: string;
  outboxDir: string;
  /** The spool (one JSON file per message not yet sent) and its scratch files; defaults to DATA_DIR/mail-queue. */
  queueDir?: string;
  /** Messages refused for good; defaults to `<queueDir>/dead`. */
  deadDir?: string;
  /** First retry after this, doubling up to maxRetryMs (per message, and for the relay as a whole). */
  retryMs?: number;
  maxRetryMs?: number;
  /** Temporary refusals (4xx) of one message before it goes to the dead letters (default 10). */
  maxAttempts?: number;
  /** How long close() lets deliveries under way finish before it cuts them off (default 1 s). */
  closeMs?: number;
  /** nodemailer's connection / greeting / socket timeouts unless SMTP_URL names its own (default 10 s, 10 s, 30 s). */
  smtpTimeouts?: { connectionMs?: number; greetingMs?: number; socketMs?: number };
  log?: { warn(obj: object, msg: string): void; info(obj: object, msg: string): void };
}

/**
 * SMTP over a few kept connections (nodemailer's pool) unless the URL says otherwise (`pool=false`): a draw's
 * busiest second mails every entry its link, and a new connection and TLS handshake per message would be
 * most of that work (bench/README.md, bench:draw). A relay that accepts the connection and then says nothing
 * must not hold a message for nodemailer's defaults (2 min to connect, 30 s for a greeting, 10 min of silence):
 * the timeouts are set unless the URL names them (docs/operations.md "Mail").
 */
function withDefaults(smtpUrl: string, timeouts: Required<NonNullable<MailerOptions['smtpTimeouts']>>): string {
  const url = new URL(smtpUrl);
  const defaults: Record<string, string> = {
    pool: 'true',
    connectionTimeout: String(timeouts.connectionMs),
    greetingTimeout: String(timeouts.greetingMs),
    socketTimeout: String(timeouts.socketMs),
  };
  for (const [key, value] of Object.entries(defaults)) if (!url.searchParams.has(key)) url.searchParams.set(key, value);
  return url.toString();
}

// nodemailer is loaded with the first message, not at boot (idle memory: bench/README.md).
const loadNodemailer = () => import('nodemailer').then((m) => m.default);

/**
 * Folders made by this process: a mail asks for its folders once, not with every message (at a draw's
 * busiest second every entry mails its link: bench/README.md, bench:draw). Forgotten after any failure, so
 * a folder removed while the shop runs is made again by the retry.
 */
function folderMaker() {
  const made = new Set<string>();
  return {
    async ensure(dir: string, mode?: number): Promise<void> {
      if (made.has(dir)) return;
      await fs.mkdir(dir, { recursive: true, mode });
      made.add(dir);
    },
    forget: () => made.clear(),
  };
}
type FolderMaker = ReturnType<typeof folderMaker>;

/** Writes a file so that it is either absent or complete: a temp file, fsync, then rename. */
async function writeAtomically(file: string, scratchDir: string, data: Buffer | string, folders: FolderMaker): Promise<void> {
  await folders.ensure(scratchDir, 0o700);
  await folders.ensure(path.dirname(file), 0o700);
  const tmp = path.join(scratchDir, `${path.basename(file)}.${crypto.randomBytes(4).toString('hex')}.tmp`);
  let handle: fs.FileHandle | undefined;
  try {
    handle = await fs.open(tmp, 'wx', 0o600);
    await handle.writeFile(data);
    await handle.sync();
    await handle.close();
    handle = undefined;
    await fs.rename(tmp, file);
  } catch (err) {
    folders.forget();
    await handle?.close().catch(() => undefined);
    await fs.rm(tmp, { force: true }).catch(() => undefined);
    throw err;
  }
}

/** A spool file: the message and how often the relay refused it for now. Older releases wrote the bare message. */
interface SpoolFile {
  v: 1;
  attempts: number;
  message: MailMessage;
  /** Dead letters only: the relay's code and reply (the reply may quote the address: never logged). */
  responseCode?: number;
  response?: string;
}

function parseSpoolFile(text: string): { message: MailMessage; attempts: number } {
  const parsed = JSON.parse(text) as SpoolFile | MailMessage;
  if ('v' in parsed && 'message' in parsed) return { message: parsed.message, attempts: parsed.attempts ?? 0 };
  return { message: parsed as MailMessage, attempts: 0 };
}

/** One message not yet handed over: a spool file, or (disk refusing even that) only in memory. */
interface Kept {
  id: string;
  /** The spool file; null while the disk refuses it (then the message is lost if the process stops). */
  file: string | null;
  message: MailMessage | null;
  attempts: number;
  dueAt: number;
  sending: boolean;
}

type Outcome = 'sent' | 'dead' | 'later' | 'relay-down' | 'stopped';

/** Waits for `work`, but not longer than `ms`. */
async function within(work: Promise<unknown>, ms: number): Promise<void> {
  let bound: NodeJS.Timeout | undefined;
  await Promise.race([work, new Promise<void>((resolve) => (bound = setTimeout(resolve, ms)))]);
  clearTimeout(bound);
}

/** A refusal of this message for good (5xx; 503 is a command out of order, not a verdict on the message). */
const isPermanent = (code: number | undefined) => code !== undefined && code >= 500 && code < 600 && code !== 503;

/**
 * Mail is kept until it is sent (docs/operations.md "Mail").
 *
 * With SMTP_URL: `send` writes the message to the spool (DATA_DIR/mail-queue, one JSON file per message,
 * fsynced and renamed into place) and resolves; a sender works through the spool, a few at a time, and
 * deletes a file only once the relay accepted it. A relay that is down or hangs (timeouts) pauses the
 * sending, backing off, and no message is charged for it; a message the relay refuses for now (4xx) is
 * tried again later on its own back-off, and goes to the dead letters (`<queueDir>/dead`) after
 * `maxAttempts` such refusals, or at once when refused for good (5xx), so one bad recipient never holds up
 * the others. `close` cuts off deliveries still under way after `closeMs`: their files stay and go out
 * after the next start (at least once: a relay that took a message but whose reply was cut off gets it again).
 *
 * Without SMTP_URL each message is an .eml file in DATA_DIR/outbox, written atomically (never a 0-byte or
 * half file) before `send` resolves; one that cannot be written now (disk full) is spooled, or kept in
 * memory while the disk refuses that too, and retried the same way.
 */
export function createMailer(opts: MailerOptions): Mailer {
  const queueDir = opts.queueDir ?? path.join(path.dirname(opts.outboxDir), 'mail-queue');
  const deadDir = opts.deadDir ?? path.join(queueDir, 'dead');
  const scratchDir = path.join(queueDir, 'tmp');
  const retryMs = opts.retryMs ?? 5_000;
  const maxRetryMs = opts.maxRetryMs ?? 60_000;
  const maxAttempts = opts.maxAttempts ?? 10;
  const closeMs = opts.closeMs ?? 1_000;
  const log = opts.log;
  const folders = folderMaker();
  const smtpUrl = opts.smtpUrl
    ? withDefaults(opts.smtpUrl, {
        connectionMs: opts.smtpTimeouts?.connectionMs ?? 10_000,
        greetingMs: opts.smtpTimeouts?.greetingMs ?? 10_000,
        socketMs: opts.smtpTimeouts?.socketMs ?? 30_000,
      })
    : undefined;
  // As many deliveries at once as the pool has connections (nodemailer's default 5).
  const concurrency = smtpUrl ? Math.max(1, Number(new URL(smtpUrl).searchParams.get('maxConnections')) || 5) : 1;

  let transport: Promise<import('nodemailer').Transporter> | null = null;
  const getTransport = () =>
    (transport ??= loadNodemailer().then((n) =>
      smtpUrl ? n.createTransport(smtpUrl) : n.createTransport({ streamTransport: true, buffer: true, newline: 'unix' }),
    ));

  /** Hands one message over: accepted by the relay, or written to the outbox. */
  async function deliver(message: MailMessage, signal?: AbortSignal): Promise<void> {
    const info = await (await getTransport()).sendMail({ from: opts.from, ...message, signal });
    if (smtpUrl) return;
    await folders.ensure(opts.outboxDir);
    const stamp = new Date().toISOString().replace(/[:.]/g, '-');
    const file = path.join(opts.outboxDir, `${stamp}-${crypto.randomBytes(4).toString('hex')}.eml`);
    await writeAtomically(file, scratchDir, info.message as Buffer, folders);
  }

  /** Every message not yet handed over, oldest first (Map order); the dead letters are not in it. */
  const kept = new Map<string, Kept>();
  const deliveries = new Map<Kept, { controller: AbortController; done: Promise<Outcome> }>();
  let deadLetters = 0;
  let relayDelay = retryMs;
  let relayPausedUntil = 0;
  let timer: NodeJS.Timeout | null = null;
  let timerAt = 0;
  let closed = false;
  let seq = 0;

  /** Sorts as it was made: the spool is sent oldest first, also after a restart. */
  const newId = () => `${Date.now().toString(36).padStart(9, '0')}-${(seq++).toString(36).padStart(4, '0')}-${crypto.randomBytes(4).toString('hex')}`;

  async function spool(message: MailMessage): Promise<void> {
    const id = newId();
    const entry: Kept = { id, file: path.join(queueDir, `${id}.json`), message, attempts: 0, dueAt: 0, sending: false };
    try {
      await writeAtomically(entry.file!, scratchDir, JSON.stringify({ v: 1, attempts: 0, message } satisfies SpoolFile), folders);
    } catch (err) {
      entry.file = null;
      log?.warn({ code: (err as NodeJS.ErrnoException).code }, 'mail spool not writable: message kept in memory');
    }
    kept.set(id, entry);
  }

  async function readKept(entry: Kept): Promise<MailMessage | null> {
    if (entry.message) return entry.message;
    try {
      const { message, attempts } = parseSpoolFile(await fs.readFile(entry.file!, 'utf8'));
      entry.attempts = Math.max(entry.attempts, attempts);
      // Not cached: a spool of thousands after a long outage is read one file at a time, not held.
      return message;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') {
        kept.delete(entry.id); // gone (sent by an earlier run that could not say so, or removed by hand)
        return null;
      }
      if (err instanceof SyntaxError) {
        await toDeadLetters(entry, null, {});
        return null;
      }
      entry.dueAt = Date.now() + maxRetryMs; // unreadable now (I/O error): tried again later
      return null;
    }
  }

  /** Moves a message refused for good to the dead letters, where the operator finds it. */
  async function toDeadLetters(entry: Kept, message: MailMessage | null, reason: { responseCode?: number; response?: string }): Promise<void> {
    kept.delete(entry.id);
    const target = path.join(deadDir, `${entry.id}.json`);
    try {
      if (message) {
        const body: SpoolFile = { v: 1, attempts: entry.attempts, message, ...reason };
        await writeAtomically(target, scratchDir, JSON.stringify(body), folders);
        if (entry.file) await fs.rm(entry.file, { force: true });
      } else if (entry.file) {
        await folders.ensure(deadDir, 0o700);
        await fs.rename(entry.file, target);
      }
    } catch (err) {
      log?.warn({ code: (err as NodeJS.ErrnoException).code }, 'a dead letter could not be written: the message stays in the spool');
      if (entry.file) kept.set(entry.id, { ...entry, dueAt: Date.now() + maxRetryMs, sending: false });
      return;
    }
    deadLetters++;
    // No address and no reply text (it may quote the address): only the code and where to look.
    log?.warn(
      { responseCode: reason.responseCode, attempts: entry.attempts, deadLetters, folder: deadDir },
      'mail refused for good: moved to the dead letters (docs/operations.md "Mail")',
    );
  }

  /** One try of one kept message. */
  async function attempt(entry: Kept): Promise<Outcome> {
    const controller = new AbortController();
    entry.sending = true;
    const done = (async (): Promise<Outcome> => {
      const message = await readKept(entry);
      if (!message) return 'later';
      try {
        await deliver(message, controller.signal);
      } catch (err) {
        if (closed || controller.signal.aborted) return 'stopped';
        const e = err as NodeJS.ErrnoException & { responseCode?: number; response?: string };
        const responseCode = typeof e.responseCode === 'number' ? e.responseCode : undefined;
        if (isPermanent(responseCode) || (responseCode !== undefined && entry.attempts + 1 >= maxAttempts)) {
          entry.attempts++;
          await toDeadLetters(entry, message, { responseCode, response: e.response });
          return 'dead';
        }
        if (responseCode !== undefined) {
          // The relay answered and refused this message for now: it waits on its own back-off.
          entry.attempts++;
          entry.dueAt = Date.now() + Math.min(retryMs * 2 ** (entry.attempts - 1), maxRetryMs);
          if (entry.file) {
            const body: SpoolFile = { v: 1, attempts: entry.attempts, message };
            await writeAtomically(entry.file, scratchDir, JSON.stringify(body), folders).catch(() => undefined);
          }
          log?.warn({ responseCode, attempts: entry.attempts }, 'mail refused for now: tried again later');
          return 'later';
        }
        // No answer (relay down or hanging, disk full): nobody's fault but the relay's. This one goes to the
        // back, so a message that itself breaks the connection cannot stay first in line.
        kept.delete(entry.id);
        kept.set(entry.id, entry);
        relayPausedUntil = Date.now() + relayDelay;
        relayDelay = Math.min(relayDelay * 2, maxRetryMs);
        log?.warn({ code: e.code, pending: kept.size }, 'mail not sent now: kept for a retry');
        return 'relay-down';
      }
      relayDelay = retryMs;
      // Sent: forget it, the file first, so pending() never reads 0 while a sent message is still on disk.
      // A failed unlink means it could be sent twice; better than never.
      if (entry.file) await fs.rm(entry.file, { force: true }).catch(() => undefined);
      kept.delete(entry.id);
      return 'sent';
    })().finally(() => {
      entry.sending = false;
      deliveries.delete(entry);
    });
    deliveries.set(entry, { controller, done });
    return done;
  }

  /** Starts deliveries of due messages, up to `concurrency` at once; sets a timer for the next due one. */
  function pump(): void {
    if (closed) return;
    const now = Date.now();
    if (now >= relayPausedUntil) {
      for (const entry of kept.values()) {
        if (deliveries.size >= concurrency) break;
        if (entry.sending || entry.dueAt > now) continue;
        void attempt(entry).then((outcome) => {
          if (outcome === 'sent' && kept.size === 0) log?.info({}, 'kept mail sent');
          pump();
        });
      }
    }
    scheduleNext();
  }

  function scheduleNext(): void {
    // While deliveries are under way, each one's end pumps again (and a spool of thousands is not scanned per message).
    if (closed || kept.size === 0 || deliveries.size > 0) return;
    let next = Infinity;
    for (const entry of kept.values()) if (!entry.sending) next = Math.min(next, Math.max(entry.dueAt, relayPausedUntil));
    if (next === Infinity) return;
    if (timer && timerAt <= next) return;
    if (timer) clearTimeout(timer);
    timerAt = next;
    timer = setTimeout(
      () => {
        timer = null;
        pump();
      },
      Math.max(0, next - Date.now()),
    );
    timer.unref();
  }

  /** Spool files this process does not know yet (an earlier run's, at start). */
  async function scanSpool(): Promise<void> {
    let names: string[];
    try {
      names = (await fs.readdir(queueDir)).filter((f) => f.endsWith('.json')).sort();
    } catch {
      return;
    }
    for (const name of names) {
      const id = name.slice(0, -'.json'.length);
      if (!kept.has(id)) kept.set(id, { id, file: path.join(queueDir, name), message: null, attempts: 0, dueAt: 0, sending: false });
    }
  }

  const started = (async () => {
    await scanSpool();
    try {
      deadLetters = (await fs.readdir(deadDir)).filter((f) => f.endsWith('.json')).length;
    } catch {
      deadLetters = 0;
    }
    if (deadLetters > 0) log?.warn({ deadLetters, folder: deadDir }, 'mail in the dead letters: refused for good (docs/operations.md "Mail")');
    pump();
  })();

  async function retryNow(): Promise<void> {
    await started;
    await scanSpool();
    relayPausedUntil = 0;
    let relayDown = false;
    const waiting = [...kept.values()].filter((e) => !e.sending);
    let next = 0;
    const worker = async () => {
      while (next < waiting.length && !relayDown && !closed) {
        const entry = waiting[next++]!;
        if (entry.sending || !kept.has(entry.id)) continue;
        if ((await attempt(entry)) === 'relay-down') relayDown = true;
      }
    };
    await Promise.all(Array.from({ length: Math.min(concurrency, Math.max(1, waiting.length)) }, worker));
    await Promise.all([...deliveries.values()].map((d) => d.done));
    pump();
  }

  return {
    async send(message) {
      if (closed) {
        // After close(): straight to the spool (or the outbox), for the next start to send.
        if (smtpUrl) return void (await spool(message));
      }
      if (!smtpUrl) {
        try {
          await deliver(message);
          return;
        } catch (err) {
          // Who the mail was for stays out of the log (docs/security.md): only that one is kept.
          log?.warn({ code: (err as NodeJS.ErrnoException).code }, 'mail not sent now: kept for a retry');
          await spool(message);
          relayPausedUntil = Date.now() + relayDelay;
          pump();
          return;
        }
      }
      // The message is on disk before the caller goes on (an order's answer, docs/operations.md "Mail").
      await spool(message);
      pump();
    },
    pending: () => kept.size,
    deadLetters: () => deadLetters,
    retryNow,
    async close() {
      closed = true;
      if (timer) clearTimeout(timer);
      timer = null;
      await started;
      // Deliveries under way get a moment to finish; then they are cut off and their files wait for the next start.
      const under = [...deliveries.values()].map((d) => d.done);
      if (under.length) {
        await within(Promise.all(under), closeMs);
        for (const d of deliveries.values()) d.controller.abort();
        await within(Promise.all(under), closeMs);
      }
      // A pool's kept connections would hold the process open; `force` also ends one still delivering.
      if (transport) (await transport.catch(() => null))?.close({ force: true });
    },
  };
}
