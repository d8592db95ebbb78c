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
  /** Kept messages (one JSON file each) and the outbox's scratch files; defaults to DATA_DIR/mail-queue. */
  queueDir?: string;
  /** First retry after this, doubling up to maxRetryMs. */
  retryMs?: number;
  maxRetryMs?: number;
  log?: { warn(obj: object, msg: string): void; info(obj: object, msg: string): void };
}

/**
 * SMTP over a few kept connections (nodemailer's pool) unless the URL says otherwise (`pool=false`): a draw's
 * busiest second mails every entry its link, and a new connection and TLS handshake per message would be
 * most of that work (bench/README.md, bench:draw).
 */
function pooled(smtpUrl: string): string {
  const url = new URL(smtpUrl);
  if (!url.searchParams.has('pool')) url.searchParams.set('pool', 'true');
  return url.toString();
}

// nodemailer is loaded with the first message, not at boot (idle memory: bench/README.md).
const loadNodemailer = () => import('nodemailer').then((m) => m.default);

/**
 * Folders made by this process: a mail asks for its two folders once, not with every message (at a draw's
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

/**
 * SMTP when SMTP_URL is set; otherwise each message is an .eml file in DATA_DIR/outbox, written
 * atomically (never a 0-byte or half file). A message that fails (SMTP refused or down, disk full) is
 * kept: as a JSON file in the queue folder when the disk takes it (it survives a restart), else in
 * memory, and retried with back-off (docs/operations.md "Mail").
 */
export function createMailer(opts: MailerOptions): Mailer {
  const queueDir = opts.queueDir ?? path.join(path.dirname(opts.outboxDir), 'mail-queue');
  const scratchDir = path.join(queueDir, 'tmp');
  const retryMs = opts.retryMs ?? 5_000;
  const maxRetryMs = opts.maxRetryMs ?? 60_000;
  const log = opts.log;
  const folders = folderMaker();

  let transport: Promise<import('nodemailer').Transporter> | null = null;
  const smtpUrl = opts.smtpUrl;
  const getTransport = () =>
    (transport ??= loadNodemailer().then((n) =>
      smtpUrl ? n.createTransport(pooled(smtpUrl)) : n.createTransport({ streamTransport: true, buffer: true, newline: 'unix' }),
    ));

  async function deliver(message: MailMessage): Promise<void> {
    const info = await (await getTransport()).sendMail({ from: opts.from, ...message });
    if (smtpUrl) return;
    await folders.ensure(opts.outboxDir);
    const stamp = new Date().toISOString().replace(/[:.]/g, '-');
    const file = path.join(opts.outboxDir, `${stamp}-${crypto.randomBytes(4).toString('hex')}.eml`);
    await writeAtomically(file, scratchDir, info.message as Buffer, folders);
  }

  /** Kept in memory only while the disk refuses the queue file too. */
  const inMemory: MailMessage[] = [];
  let onDisk = 0;
  let timer: NodeJS.Timeout | null = null;
  let delay = retryMs;
  let closed = false;
  let retrying: Promise<void> | null = null;

  async function keep(message: MailMessage): Promise<void> {
    try {
      const id = `${Date.now().toString(36)}-${crypto.randomBytes(6).toString('hex')}`;
      await writeAtomically(path.join(queueDir, `${id}.json`), scratchDir, JSON.stringify(message), folders);
      onDisk++;
    } catch {
      inMemory.push(message);
    }
    schedule();
  }

  function schedule() {
    if (timer || closed) return;
    timer = setTimeout(() => {
      timer = null;
      void retryNow();
    }, delay);
    timer.unref();
  }

  async function queuedFiles(): Promise<string[]> {
    try {
      return (await fs.readdir(queueDir)).filter((f) => f.endsWith('.json')).sort();
    } catch {
      return [];
    }
  }

  async function retryOnce(): Promise<void> {
    let failed = false;
    for (const message of inMemory.splice(0)) {
      if (failed) {
        inMemory.push(message);
        continue;
      }
      try {
        await deliver(message);
      } catch {
        failed = true;
        inMemory.push(message);
      }
    }
    const files = await queuedFiles();
    onDisk = files.length;
    for (const name of files) {
      if (failed) break;
      const file = path.join(queueDir, name);
      let message: MailMessage;
      try {
        message = JSON.parse(await fs.readFile(file, 'utf8')) as MailMessage;
      } catch {
        continue; // unreadable now (I/O error): tried again next round
      }
      try {
        await deliver(message);
      } catch {
        failed = true;
        break;
      }
      // Sent: forget it. A failed unlink means it could be sent twice; better than never.
      await fs.rm(file, { force: true }).catch(() => undefined);
      onDisk--;
    }
    const left = inMemory.length + onDisk;
    if (left === 0) {
      delay = retryMs;
      log?.info({}, 'kept mail sent');
      return;
    }
    delay = failed ? Math.min(delay * 2, maxRetryMs) : retryMs;
    log?.warn({ pending: left }, 'mail still kept for a retry');
    schedule();
  }

  async function retryNow(): Promise<void> {
    retrying ??= retryOnce().finally(() => {
      retrying = null;
    });
    return retrying;
  }

  // Messages kept by an earlier run are retried soon after start.
  void queuedFiles().then((files) => {
    onDisk = files.length;
    if (files.length) schedule();
  });

  return {
    async send(message) {
      try {
        await deliver(message);
      } catch (err) {
        // Who the mail was for stays out of the log (docs/security.md): only that one is kept.
        log?.warn({ code: (err as NodeJS.ErrnoException).code }, 'mail not sent now: kept for a retry');
        await keep(message);
      }
    },
    pending: () => inMemory.length + onDisk,
    retryNow,
    async close() {
      closed = true;
      if (timer) clearTimeout(timer);
      timer = null;
      await retrying;
      // A pool's kept connections would hold the process open.
      if (transport) (await transport.catch(() => null))?.close();
    },
  };
}
