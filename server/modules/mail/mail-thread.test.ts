// The mailer on a worker thread (mail-thread.ts): real worker threads, real files, real nodemailer, a real
// SMTP conversation; the compiled worker under plain node as `npm start` runs it.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { build } from 'esbuild';
import { serverBuildOptions } from '../../../scripts/build-server.mjs';
import { afterEach, describe, expect, test } from 'vitest';
import { loadConfig } from '../../config';
import { projectRoot } from '../../lib/project-root';
import { createMailer, type MailMessage } from './mail.service';
import { createThreadedMailer, type ThreadedMailer } from './mail-thread';
import { freePort } from '../../../tests/support/shop-process';
import { smtpServer } from '../../../tests/support/smtp-server';

const cleanups: Array<() => void | Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

function tempDir(parent = os.tmpdir()): string {
  fs.mkdirSync(parent, { recursive: true });
  const dir = fs.mkdtempSync(path.join(parent, 'fifty-mail-thread-'));
  cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

function recordingLog() {
  const lines: Array<{ level: string; obj: object; msg: string }> = [];
  return {
    lines,
    warn: (obj: object, msg: string) => void lines.push({ level: 'warn', obj, msg }),
    info: (obj: object, msg: string) => void lines.push({ level: 'info', obj, msg }),
  };
}

function threaded(opts: Partial<Parameters<typeof createThreadedMailer>[0]> & { outboxDir: string }): ThreadedMailer {
  const mailer = createThreadedMailer({ from: 'FIFTY <orders@fifty.local>', retryMs: 60_000, ...opts });
  cleanups.push(() => mailer.close());
  return mailer;
}

/** A draw entry's confirmation, about the size the shop sends. */
const confirmation = (n: number): MailMessage => ({
  to: `entrant${n}@example.com`,
  subject: `Confirm your entry ${n}`,
  text: `Confirm your entry in the draw: https://shop.example/draws/confirm?token=${'t'.repeat(43)}${n}\n\n${'Lorem ipsum. '.repeat(30)}`,
  html: `<p>Confirm your entry in the draw: <a href="https://shop.example/draws/confirm?token=${'t'.repeat(43)}${n}">confirm</a></p><p>${'Lorem ipsum. '.repeat(30)}</p>`,
});

const outboxFiles = (dir: string) =>
  fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => f.endsWith('.eml')).map((f) => fs.readFileSync(path.join(dir, f), 'utf8')) : [];

/** How many .eml files carry each subject. */
function subjectCounts(dir: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const eml of outboxFiles(dir)) {
    const subject = /^Subject: (.*)$/m.exec(eml)?.[1] ?? '?';
    counts.set(subject, (counts.get(subject) ?? 0) + 1);
  }
  return counts;
}

/** What differs between two renderings of one message: its id, date and MIME boundaries. */
const normalized = (eml: string) =>
  eml
    .replace(/^Message-ID: .*$/m, 'Message-ID: <id>')
    .replace(/^Date: .*$/m, 'Date: <date>')
    .replace(/_NmP-[0-9a-f]+-Part/g, '_NmP-<boundary>-Part');

describe('the mailer on a worker thread', () => {
  test('writes the same .eml as the mailer on this thread (headers, body, attachment), from a worker', async () => {
    const message: MailMessage = {
      to: 'Ana Lima <ana@example.com>',
      subject: 'Your draw result: FIFTY',
      text: 'You won piece No. 17 of 50.\nÇa marche.',
      html: '<p>You won piece <b>No. 17 of 50</b>.</p><p>Ça marche.</p>',
      headers: { 'List-Unsubscribe': '<https://shop.example/u/abc>', 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
      attachments: [{ filename: 'drop.ics', content: 'BEGIN:VCALENDAR\r\nVERSION:2.0\r\nEND:VCALENDAR\r\n', contentType: 'text/calendar' }],
    };
    const inThreadDir = tempDir();
    const inThread = createMailer({ from: 'FIFTY <orders@fifty.local>', outboxDir: path.join(inThreadDir, 'outbox') });
    cleanups.push(() => inThread.close?.());
    await inThread.send(message);

    const threadDir = tempDir();
    const mailer = threaded({ outboxDir: path.join(threadDir, 'outbox') });
    await mailer.send(message);
    expect(mailer.mode()).toBe('thread');

    const [expected] = outboxFiles(path.join(inThreadDir, 'outbox'));
    const written = outboxFiles(path.join(threadDir, 'outbox'));
    expect(written).toHaveLength(1);
    expect(normalized(written[0]!)).toBe(normalized(expected!));
    expect(written[0]).toMatch(/^To: Ana Lima <ana@example\.com>$/m);
    expect(written[0]).toMatch(/^Subject: Your draw result/m);
    expect(written[0]).toMatch(/^List-Unsubscribe: <https:\/\/shop\.example\/u\/abc>$/m);
    expect(written[0]).toContain('Content-Disposition: attachment; filename=drop.ics');
    expect(written[0]).toContain(Buffer.from(message.attachments![0]!.content).toString('base64'));
  });

  test('200 concurrent sends: every message lands exactly once', async () => {
    const dir = tempDir();
    const outbox = path.join(dir, 'outbox');
    const mailer = threaded({ outboxDir: outbox });
    await Promise.all(Array.from({ length: 200 }, (_, n) => mailer.send(confirmation(n))));
    const counts = subjectCounts(outbox);
    expect(counts.size).toBe(200);
    expect([...counts.values()].every((c) => c === 1)).toBe(true);
    expect(mailer.pending()).toBe(0);
    expect(mailer.mode()).toBe('thread');
  });

  test('close() waits for the messages in flight, then ends the worker', async () => {
    const dir = tempDir();
    const outbox = path.join(dir, 'outbox');
    const mailer = threaded({ outboxDir: outbox });
    let settled = 0;
    const sends = Array.from({ length: 50 }, (_, n) => mailer.send(confirmation(n)).then(() => void settled++));
    await mailer.close();
    expect(settled).toBe(50);
    expect(subjectCounts(outbox).size).toBe(50);
    await Promise.all(sends);
  });

  test('a worker killed mid-way: every unacknowledged message is sent again by a new worker (at least once)', async () => {
    const dir = tempDir();
    const outbox = path.join(dir, 'outbox');
    const log = recordingLog();
    const mailer = threaded({ outboxDir: outbox, log });
    // Killed from the 20th acknowledgement's own callback: a poll could come only after a fast box had
    // acknowledged every message in one burst (the kill must land mid-way).
    const total = 1_000;
    const acked = new Set<number>();
    let ackedBeforeKill: Set<number> | null = null;
    let killed: Promise<void> | null = null;
    const sends = Array.from({ length: total }, (_, n) =>
      mailer.send(confirmation(n)).then(() => {
        acked.add(n);
        if (!killed && acked.size >= 20) {
          ackedBeforeKill = new Set(acked);
          killed = mailer.terminateWorkerForTests();
        }
      }),
    );
    await expect.poll(() => killed, { timeout: 30_000 }).not.toBeNull();
    await killed;
    await Promise.all(sends);
    if (!ackedBeforeKill) throw new Error('never killed');
    const before: Set<number> = ackedBeforeKill;
    expect(before.size).toBeLessThan(total); // killed mid-way, not after the end

    const counts = subjectCounts(outbox);
    for (let n = 0; n < total; n++) {
      const count = counts.get(`Confirm your entry ${n}`) ?? 0;
      // Acknowledged before the kill: never sent again. The others: at least once, at most twice (the dead
      // worker may have written one without acknowledging it).
      if (before.has(n)) expect(count, `message ${n}`).toBe(1);
      else {
        expect(count, `message ${n}`).toBeGreaterThanOrEqual(1);
        expect(count, `message ${n}`).toBeLessThanOrEqual(2);
      }
    }
    expect(mailer.mode()).toBe('thread');
    expect(log.lines.map((l) => l.msg)).toContain('mail worker stopped: mail not yet acknowledged is sent again by a new worker');
    expect(JSON.stringify(log.lines)).not.toContain('@example.com');

    // The new worker goes on taking mail.
    await mailer.send(confirmation(total));
    expect(subjectCounts(outbox).get(`Confirm your entry ${total}`)).toBe(1);
  });

  test('a worker that dies 3 times in a row without acknowledging anything: mail is sent on this thread', async () => {
    const dir = tempDir();
    const outbox = path.join(dir, 'outbox');
    const log = recordingLog();
    const mailer = threaded({ outboxDir: outbox, log });
    await mailer.send(confirmation(0)); // the worker started and works
    // Enough that the first worker is still at them when it is ended, however fast the box.
    const sends = Array.from({ length: 200 }, (_, n) => mailer.send(confirmation(n + 1)));
    // Each new worker is ended before it is ready, as a message that kills it on arrival would. (The first
    // one may acknowledge a few messages before it ends: that resets the count, hence up to 4 kills.)
    let kills = 0;
    while (mailer.mode() === 'thread' && kills < 10) {
      await mailer.terminateWorkerForTests();
      kills++;
    }
    expect(kills).toBeGreaterThanOrEqual(3);
    expect(kills).toBeLessThanOrEqual(4);
    await Promise.all(sends);
    const counts = subjectCounts(outbox);
    for (let n = 0; n <= 200; n++) expect(counts.get(`Confirm your entry ${n}`), `message ${n}`).toBeGreaterThanOrEqual(1);
    expect(log.lines.map((l) => l.msg)).toContain('mail worker could not start: mail is sent from the main thread');
  });

  test.each([
    ['compiled', 'mail-worker.js'],
    ['TypeScript', 'mail-worker.ts'],
  ])('the worker file is missing (%s): mail is sent on this thread, with a warning that names no one', async (_, name) => {
    const dir = tempDir();
    const outbox = path.join(dir, 'outbox');
    const log = recordingLog();
    const mailer = threaded({ outboxDir: outbox, log, workerFile: path.join(dir, 'missing', name) });
    await Promise.all([mailer.send(confirmation(1)), mailer.send(confirmation(2))]);
    expect(mailer.mode()).toBe('in-thread');
    expect([...subjectCounts(outbox).values()]).toEqual([1, 1]);
    expect(log.lines).toContainEqual(expect.objectContaining({ level: 'warn', msg: 'mail worker could not start: mail is sent from the main thread' }));
    expect(JSON.stringify(log.lines)).not.toContain('@example.com');
    await mailer.send(confirmation(3));
    expect(subjectCounts(outbox).size).toBe(3);
  });

  test('startAtOnce: the worker is started when the mailer is made, before any message (here: found missing at once)', async () => {
    const dir = tempDir();
    const log = recordingLog();
    const lazy = threaded({ outboxDir: path.join(dir, 'lazy'), log, workerFile: path.join(dir, 'missing', 'mail-worker.js') });
    const eager = threaded({
      outboxDir: path.join(dir, 'eager'),
      log,
      workerFile: path.join(dir, 'missing', 'mail-worker.js'),
      startAtOnce: true,
    });
    // No message sent: only the eager one has tried its worker (and fallen back, as its file is missing).
    await expect.poll(() => eager.mode(), { timeout: 10_000 }).toBe('in-thread');
    expect(lazy.mode()).toBe('thread');
  });

  test('mail kept by an earlier run: the worker starts at once and sends it, without a new message', async () => {
    const dir = tempDir();
    const queue = path.join(dir, 'mail-queue');
    fs.mkdirSync(queue, { recursive: true });
    fs.writeFileSync(path.join(queue, 'kept-1.json'), JSON.stringify(confirmation(7)));
    const mailer = threaded({ outboxDir: path.join(dir, 'outbox'), retryMs: 50 });
    await expect.poll(() => subjectCounts(path.join(dir, 'outbox')).get('Confirm your entry 7'), { timeout: 20_000 }).toBe(1);
    await expect.poll(() => mailer.pending()).toBe(0);
    expect(mailer.mode()).toBe('thread');
  });

  test('SMTP down: pending() and retryNow() ask the worker; the kept message goes out when SMTP is back', async () => {
    const dir = tempDir();
    const port = await freePort();
    const mailer = threaded({ smtpUrl: `smtp://127.0.0.1:${port}`, outboxDir: path.join(dir, 'outbox') });
    await mailer.send(confirmation(1));
    expect(mailer.pending()).toBe(1);
    expect(fs.readdirSync(path.join(dir, 'mail-queue')).filter((f) => f.endsWith('.json'))).toHaveLength(1);

    const smtp = await smtpServer(port);
    cleanups.push(() => smtp.close());
    await mailer.retryNow();
    expect(mailer.pending()).toBe(0);
    expect(smtp.received).toHaveLength(1);
    expect(smtp.received[0]).toContain('Subject: Confirm your entry 1');
    expect(mailer.mode()).toBe('thread');
    await mailer.close(); // ends the SMTP pool's kept connection before the server is closed
  });
});

test('MAIL_THREAD: on by default in production, off otherwise, and either when set', () => {
  const production = { NODE_ENV: 'production', PAYMENTS: 'offline', PUBLIC_URL: 'https://shop.example' };
  expect(loadConfig(production).MAIL_THREAD).toBe('on');
  expect(loadConfig({ ...production, MAIL_THREAD: 'off' }).MAIL_THREAD).toBe('off');
  expect(loadConfig({}).MAIL_THREAD).toBe('off');
  expect(loadConfig({ NODE_ENV: 'test', MAIL_THREAD: 'on' }).MAIL_THREAD).toBe('on');
  expect(() => loadConfig({ MAIL_THREAD: 'yes' })).toThrow(/MAIL_THREAD: must be on or off/);
});

describe('compiled, under plain node (as `npm start` runs dist/server)', () => {
  test('finds dist/…/mail-worker.js next to its entry, sends from it, and does not keep the process alive', async () => {
    // Under node_modules so the compiled files find nodemailer as dist/server's do.
    const dir = tempDir(path.join(projectRoot, 'node_modules', '.cache'));
    const outbox = path.join(dir, 'outbox');
    fs.writeFileSync(
      path.join(dir, 'entry.ts'),
      [
        `import { createThreadedMailer } from ${JSON.stringify(path.join(projectRoot, 'server/modules/mail/mail-thread.ts'))};`,
        `const mailer = createThreadedMailer({ from: 'shop@example.com', outboxDir: ${JSON.stringify(outbox)} });`,
        // Not awaited and never closed: the process must stay for the messages in flight, then end by itself.
        `for (let n = 0; n < 3; n++) void mailer.send({ to: 'a@example.com', subject: 'compiled ' + n, text: 'x', html: '<p>x</p>' });`,
        `process.on('exit', () => console.log(JSON.stringify({ mode: mailer.mode() })));`,
      ].join('\n'),
    );
    // Compiled as scripts/build-server.mjs compiles the shop: the worker its own entry, shared code in chunks/.
    await build(serverBuildOptions({ main: path.join(dir, 'entry.ts'), outdir: path.join(dir, 'dist', 'server') }));
    const child = spawn(process.execPath, [path.join(dir, 'dist', 'server', 'main.js')], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (out += c.toString()));
    const code = await new Promise<number | null>((resolve) => {
      const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
      child.on('exit', (c) => (clearTimeout(timer), resolve(c)));
    });
    expect(code, out).toBe(0);
    expect(out).toContain('{"mode":"thread"}');
    expect([...subjectCounts(outbox).keys()].sort()).toEqual(['compiled 0', 'compiled 1', 'compiled 2']);
  });
});


