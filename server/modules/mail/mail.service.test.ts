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



describe('SMTP', () => {
  test('SMTP down: the message is kept on disk, survives a restart of the mailer, and goes out when SMTP is back', async () => {
    const dataDir = tempDir();
    const port = await freePort();
    const opts = { smtpUrl: `smtp://127.0.0.1:${port}`, from: 'shop@example.com', outboxDir: path.join(dataDir, 'outbox'), retryMs: 60_000 };
    const first = createMailer(opts);
    cleanups.push(() => first.close?.());
    // Nothing listens on the port: sendMail fails, send() still resolves (the mail is kept, not lost).
    await first.send(message(1));
    await first.send(message(2));
    expect(first.pending?.()).toBe(2);
    const queued = fs.readdirSync(path.join(dataDir, 'mail-queue')).filter((f) => f.endsWith('.json'));
    expect(queued).toHaveLength(2);
    expect(JSON.parse(fs.readFileSync(path.join(dataDir, 'mail-queue', queued[0]!), 'utf8'))).toMatchObject({ subject: expect.stringMatching(/FIFTY-[12]/) });
    await first.close?.();

    // A new process (the shop restarted) finds them and sends them once SMTP answers.
    const smtp = await smtpServer(port);
    cleanups.push(() => smtp.close());
    const second = createMailer(opts);
    cleanups.push(() => second.close?.());
    await expect.poll(() => second.pending?.()).toBe(2);
    await second.retryNow?.();
    expect(second.pending?.()).toBe(0);
    expect(smtp.received).toHaveLength(2);
    expect(smtp.received.join('\n')).toContain('Order FIFTY-1 confirmed');
    expect(smtp.received.join('\n')).toContain('Order FIFTY-2 confirmed');
    expect(fs.readdirSync(path.join(dataDir, 'mail-queue')).filter((f) => f.endsWith('.json'))).toEqual([]);
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
