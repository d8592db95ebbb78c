// Mail that cannot go out now is kept and retried, never lost: SMTP down (a real SMTP conversation
// with a small local server), and the outbox on a disk that is full (a real tmpfs, as root).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { freePort } from '../../../tests/support/shop-process';
import { smtpServer } from '../../../tests/support/smtp-server';
import { createMailer, type MailMessage } from './mail.service';

const cleanups: Array<() => void | Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fifty-mail-'));
  cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

const message = (n: number): MailMessage => ({
  to: `shopper${n}@example.com`,
  subject: `Order FIFTY-${n} confirmed`,
  text: `Thank you for order ${n}.`,
  html: `<p>Thank you for order ${n}.</p>`,
});

function recordingLog() {
  const lines: Array<{ level: string; obj: object; msg: string }> = [];
  return {
    lines,
    warn: (obj: object, msg: string) => void lines.push({ level: 'warn', obj, msg }),
    info: (obj: object, msg: string) => void lines.push({ level: 'info', obj, msg }),
  };
}

const spooled = (dir: string) =>
  fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => f.endsWith('.json')) : [];

/** How many received messages carry each subject. */
function subjectCounts(received: string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const m of received) {
    const subject = /^Subject: (.*)$/m.exec(m)?.[1] ?? '?';
    counts.set(subject, (counts.get(subject) ?? 0) + 1);
  }
  return counts;
}

const outboxFiles = (dir: string) =>
  fs.existsSync(dir)
    ? fs
        .readdirSync(dir)
        .filter((f) => f.endsWith('.eml'))
        .map((f) => fs.readFileSync(path.join(dir, f), 'utf8'))
    : [];

describe('outbox (no SMTP_URL)', () => {
  test('each message is one whole .eml before send() returns: headers, both bodies, the attachment', async () => {
    const dir = tempDir();
    const outbox = path.join(dir, 'outbox');
    const mailer = createMailer({ from: 'FIFTY <orders@fifty.local>', outboxDir: outbox });
    cleanups.push(() => mailer.close?.());
    const attachment = 'BEGIN:VCALENDAR\r\nVERSION:2.0\r\nEND:VCALENDAR\r\n';
    await mailer.send({
      to: 'Ana Lima <ana@example.com>',
      subject: 'Your draw result: FIFTY',
      text: 'You won piece No. 17 of 50.',
      html: '<p>You won piece <b>No. 17 of 50</b>.</p>',
      headers: {
        'List-Unsubscribe': '<https://shop.example/u/abc>',
        'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
      },
      attachments: [{ filename: 'drop.ics', content: attachment, contentType: 'text/calendar' }],
    });
    const written = outboxFiles(outbox);
    expect(written).toHaveLength(1);
    expect(written[0]).toMatch(/^To: Ana Lima <ana@example\.com>$/m);
    expect(written[0]).toMatch(/^Subject: Your draw result: FIFTY$/m);
    expect(written[0]).toMatch(/^List-Unsubscribe: <https:\/\/shop\.example\/u\/abc>$/m);
    expect(written[0]).toContain('You won piece No. 17 of 50.');
    expect(written[0]).toContain('Content-Disposition: attachment; filename=drop.ics');
    expect(written[0]).toContain(Buffer.from(attachment).toString('base64'));
    // Written to a temp name and renamed: nothing but whole .eml files is left in the folder.
    expect(fs.readdirSync(outbox).filter((f) => !f.endsWith('.eml'))).toEqual([]);
  });

  test('200 concurrent sends: every message lands exactly once, none kept for a retry', async () => {
    const dir = tempDir();
    const outbox = path.join(dir, 'outbox');
    const mailer = createMailer({ from: 'FIFTY <orders@fifty.local>', outboxDir: outbox });
    cleanups.push(() => mailer.close?.());
    await Promise.all(Array.from({ length: 200 }, (_, n) => mailer.send(message(n))));
    const counts = subjectCounts(outboxFiles(outbox));
    expect(counts.size).toBe(200);
    expect([...counts.values()].every((c) => c === 1)).toBe(true);
    expect(mailer.pending?.()).toBe(0);
  });

  test('close() right after 50 sends: every one of them is in the outbox', async () => {
    const dir = tempDir();
    const outbox = path.join(dir, 'outbox');
    const mailer = createMailer({ from: 'FIFTY <orders@fifty.local>', outboxDir: outbox });
    const sends = Array.from({ length: 50 }, (_, n) => mailer.send(message(n)));
    await mailer.close?.();
    await Promise.all(sends);
    expect(subjectCounts(outboxFiles(outbox)).size).toBe(50);
  });
});

describe('SMTP', () => {
  test('SMTP down: the message is kept on disk, survives a restart of the mailer, and goes out when SMTP is back', async () => {
    const dataDir = tempDir();
    const port = await freePort();
    const opts = {
      smtpUrl: `smtp://127.0.0.1:${port}`,
      from: 'shop@example.com',
      outboxDir: path.join(dataDir, 'outbox'),
      retryMs: 60_000,
    };
    const first = createMailer(opts);
    cleanups.push(() => first.close?.());
    // Nothing listens on the port: send() still resolves (the mail is in the spool, not lost).
    await first.send(message(1));
    await first.send(message(2));
    expect(first.pending?.()).toBe(2);
    const queued = spooled(path.join(dataDir, 'mail-queue'));
    expect(queued).toHaveLength(2);
    expect(JSON.parse(fs.readFileSync(path.join(dataDir, 'mail-queue', queued[0]!), 'utf8'))).toMatchObject({
      message: { subject: 'Order FIFTY-1 confirmed' },
    });
    await first.close?.();

    // A new process (the shop restarted) finds them and sends them once SMTP answers.
    const smtp = await smtpServer(port);
    cleanups.push(() => smtp.close());
    const second = createMailer(opts);
    cleanups.push(() => second.close?.());
    await expect.poll(() => smtp.received.length).toBe(2);
    await expect.poll(() => second.pending?.()).toBe(0);
    expect(smtp.received.join('\n')).toContain('Order FIFTY-1 confirmed');
    expect(smtp.received.join('\n')).toContain('Order FIFTY-2 confirmed');
    expect(spooled(path.join(dataDir, 'mail-queue'))).toEqual([]);
  });

  test('a relay that accepts the connection and never answers: the 18 messages stay in the spool, close() ends within its bound, and after a restart with a working relay all 18 go out exactly once', async () => {
    const dataDir = tempDir();
    const queue = path.join(dataDir, 'mail-queue');
    const port = await freePort();
    const hung = await smtpServer(port, { hang: true });
    cleanups.push(() => hung.close());
    const log = recordingLog();
    // Timeouts longer than the test: only close() can end the deliveries under way.
    const opts = {
      smtpUrl: `smtp://127.0.0.1:${port}`,
      from: 'shop@example.com',
      outboxDir: path.join(dataDir, 'outbox'),
      smtpTimeouts: { connectionMs: 600_000, greetingMs: 600_000, socketMs: 600_000 },
      log,
    };
    const first = createMailer(opts);
    cleanups.push(() => first.close?.());
    // Each send resolves once its message is on disk, not when the relay answers (it never does) nor when
    // the mailer gives up on it: no connection to the relay has been closed yet.
    await Promise.all(Array.from({ length: 18 }, (_, n) => first.send(message(n))));
    expect(hung.closedByClient()).toBe(0);
    expect(spooled(queue)).toHaveLength(18);
    expect(first.pending?.()).toBe(18);
    await first.close?.();
    expect(spooled(queue)).toHaveLength(18);
    await hung.close();

    const smtp = await smtpServer(port);
    cleanups.push(() => smtp.close());
    const second = createMailer({ ...opts, log });
    cleanups.push(() => second.close?.());
    await expect.poll(() => second.pending?.()).toBe(0);
    await second.retryNow?.(); // nothing left to send twice
    const counts = subjectCounts(smtp.received);
    expect(counts.size).toBe(18);
    for (let n = 0; n < 18; n++) expect(counts.get(`Order FIFTY-${n} confirmed`), `message ${n}`).toBe(1);
    expect(spooled(queue)).toEqual([]);
    expect(JSON.stringify(log.lines)).not.toContain('@example.com');
  });

  test('a hanging relay is given up on after the greeting timeout: the message stays kept and the log says so', async () => {
    const dataDir = tempDir();
    const port = await freePort();
    const hung = await smtpServer(port, { hang: true });
    cleanups.push(() => hung.close());
    const log = recordingLog();
    const mailer = createMailer({
      smtpUrl: `smtp://127.0.0.1:${port}`,
      from: 'shop@example.com',
      outboxDir: path.join(dataDir, 'outbox'),
      retryMs: 60_000,
      smtpTimeouts: { greetingMs: 100 },
      log,
    });
    cleanups.push(() => mailer.close?.());
    await mailer.send(message(1));
    await expect.poll(() => log.lines.map((l) => l.msg)).toContain('mail not sent now: kept for a retry');
    expect(log.lines.find((l) => l.msg === 'mail not sent now: kept for a retry')?.obj).toMatchObject({
      code: 'ETIMEDOUT',
      pending: 1,
    });
    expect(mailer.pending?.()).toBe(1);
    expect(spooled(path.join(dataDir, 'mail-queue'))).toHaveLength(1);
  });

  test('one recipient refused for good (550): it goes to the dead letters and the 9 messages queued behind it go out', async () => {
    const dataDir = tempDir();
    const port = await freePort();
    const log = recordingLog();
    const mailer = createMailer({
      smtpUrl: `smtp://127.0.0.1:${port}`,
      from: 'shop@example.com',
      outboxDir: path.join(dataDir, 'outbox'),
      retryMs: 60_000,
      log,
    });
    cleanups.push(() => mailer.close?.());
    // Queued while the relay is down, the refused one first in line.
    await mailer.send({ ...message(0), to: 'refused@example.com' });
    for (let n = 1; n <= 9; n++) await mailer.send(message(n));
    expect(mailer.pending?.()).toBe(10);
    const smtp = await smtpServer(port, {
      refuse: (to) => (to === 'refused@example.com' ? '550 5.1.1 <refused@example.com>: no such user' : null),
    });
    cleanups.push(() => smtp.close());
    await mailer.retryNow?.();
    expect(smtp.received).toHaveLength(9);
    expect(mailer.pending?.()).toBe(0);
    expect(mailer.deadLetters?.()).toBe(1);
    const dead = spooled(path.join(dataDir, 'mail-queue', 'dead'));
    expect(dead).toHaveLength(1);
    expect(
      JSON.parse(fs.readFileSync(path.join(dataDir, 'mail-queue', 'dead', dead[0]!), 'utf8')),
    ).toMatchObject({
      responseCode: 550,
      message: { to: 'refused@example.com', subject: 'Order FIFTY-0 confirmed' },
    });
    expect(spooled(path.join(dataDir, 'mail-queue'))).toEqual([]);
    expect(log.lines).toContainEqual(
      expect.objectContaining({
        level: 'warn',
        msg: 'mail refused for good: moved to the dead letters (docs/operations.md "Mail")',
        obj: expect.objectContaining({ responseCode: 550, deadLetters: 1 }),
      }),
    );
    expect(JSON.stringify(log.lines)).not.toContain('@example.com');

    // The count is there again after a restart, in the log the operator reads.
    await mailer.close?.();
    const again = createMailer({
      smtpUrl: `smtp://127.0.0.1:${port}`,
      from: 'shop@example.com',
      outboxDir: path.join(dataDir, 'outbox'),
      log,
    });
    cleanups.push(() => again.close?.());
    await expect.poll(() => again.deadLetters?.()).toBe(1);
    expect(log.lines.at(-1)).toMatchObject({
      obj: { deadLetters: 1 },
      msg: 'mail in the dead letters: refused for good (docs/operations.md "Mail")',
    });
  });

  test('a recipient refused for now (450): tried again on its own back-off, and a dead letter after maxAttempts; the others go out meanwhile', async () => {
    const dataDir = tempDir();
    const port = await freePort();
    const smtp = await smtpServer(port, {
      refuse: (to) => (to === 'busy@example.com' ? '450 4.2.1 mailbox busy' : null),
    });
    cleanups.push(() => smtp.close());
    const log = recordingLog();
    const mailer = createMailer({
      smtpUrl: `smtp://127.0.0.1:${port}`,
      from: 'shop@example.com',
      outboxDir: path.join(dataDir, 'outbox'),
      retryMs: 60_000,
      maxAttempts: 2,
      log,
    });
    cleanups.push(() => mailer.close?.());
    await mailer.send({ ...message(0), to: 'busy@example.com' });
    await mailer.send(message(1));
    await expect.poll(() => smtp.received.length).toBe(1);
    await expect.poll(() => log.lines.map((l) => l.msg)).toContain('mail refused for now: tried again later');
    expect(mailer.pending?.()).toBe(1);
    expect(mailer.deadLetters?.()).toBe(0);
    const [kept] = spooled(path.join(dataDir, 'mail-queue'));
    expect(JSON.parse(fs.readFileSync(path.join(dataDir, 'mail-queue', kept!), 'utf8'))).toMatchObject({
      attempts: 1,
    });
    await mailer.retryNow?.();
    expect(mailer.pending?.()).toBe(0);
    expect(mailer.deadLetters?.()).toBe(1);
    expect(JSON.stringify(log.lines)).not.toContain('@example.com');
  });
});

const asRoot = process.getuid?.() === 0;

describe.skipIf(!asRoot)('outbox on a full disk (tmpfs)', () => {
  test('no 0-byte .eml: the message is kept in memory and written, whole, once space is back', async () => {
    const dataDir = tempDir();
    const mounted = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', dataDir]);
    expect(mounted.status, mounted.stderr?.toString()).toBe(0);
    cleanups.push(() => void spawnSync('umount', ['-l', dataDir]));
    const outbox = path.join(dataDir, 'outbox');
    fs.mkdirSync(outbox);
    fs.mkdirSync(path.join(dataDir, 'mail-queue', 'tmp'), { recursive: true });
    const mailer = createMailer({ from: 'shop@example.com', outboxDir: outbox, retryMs: 60_000 });
    cleanups.push(() => mailer.close?.());
    await mailer.send(message(0)); // loads nodemailer while there is room; proves the outbox works
    expect(fs.readdirSync(outbox)).toHaveLength(1);

    // Fill the disk to the last byte.
    const filler = path.join(dataDir, 'filler');
    const fd = fs.openSync(filler, 'w');
    try {
      for (;;) fs.writeSync(fd, Buffer.alloc(64 * 1024, 1));
    } catch (err) {
      expect((err as NodeJS.ErrnoException).code).toBe('ENOSPC');
    }
    try {
      for (;;) fs.writeSync(fd, Buffer.alloc(512, 1));
    } catch {
      // full to the block
    }
    fs.closeSync(fd);

    await mailer.send(message(1));
    await mailer.send(message(2));
    expect(mailer.pending?.()).toBe(2);
    // Nothing half-written: only the first, complete message is in the outbox, and no scratch file is left.
    expect(fs.readdirSync(outbox)).toHaveLength(1);
    expect(fs.readdirSync(path.join(dataDir, 'mail-queue', 'tmp'))).toEqual([]);

    await mailer.retryNow?.();
    expect(mailer.pending?.()).toBe(2); // still full: still kept

    fs.rmSync(filler);
    await mailer.retryNow?.();
    expect(mailer.pending?.()).toBe(0);
    const files = fs.readdirSync(outbox).map((f) => fs.readFileSync(path.join(outbox, f), 'utf8'));
    expect(files).toHaveLength(3);
    for (const body of files) expect(body).toMatch(/Thank you for order \d\./);
    expect(files.join('\n')).toContain('Order FIFTY-1 confirmed');
    expect(files.join('\n')).toContain('Order FIFTY-2 confirmed');
  });
});
