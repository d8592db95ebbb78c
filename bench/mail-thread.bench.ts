// Micro-bench: the main thread's time to hand 2,000 draw-confirmation-sized messages to the mailer on this
// thread (createMailer) and to the one on a worker thread (createThreadedMailer), outbox files on disk.
// Main-thread CPU is read from Linux's /proc/self/task/<pid>/stat (the main thread's own user + system time;
// process.cpuUsage() counts every thread); its event loop's active time (performance.eventLoopUtilization)
// is shown too, but on a loaded box it also counts time the thread waited for a core.
// Usage: npx tsx bench/mail-thread.bench.ts
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { createMailer, type Mailer, type MailMessage } from '../server/modules/mail/mail.service';
import { createThreadedMailer } from '../server/modules/mail/mail-thread';

const COUNT = 2_000;

/** The main thread's CPU time in ms (Linux; clock ticks of 10 ms), or NaN elsewhere. */
function mainThreadCpuMs(): number {
  try {
    const stat = fs.readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10; // utime, stime (fields 14 and 15 of stat)
  } catch {
    return Number.NaN;
  }
}
const token = 'x'.repeat(43);
const confirmation = (n: number): MailMessage => ({
  to: `entrant${n}@example.com`,
  subject: 'Confirm your entry in the FIFTY draw',
  text: `Confirm your entry: https://shop.example/draws/confirm?token=${token}${n}\n\n${'Your entry is kept until you confirm it. '.repeat(12)}`,
  html: `<p>Confirm your entry: <a href="https://shop.example/draws/confirm?token=${token}${n}">Confirm</a></p><p>${'Your entry is kept until you confirm it. '.repeat(12)}</p>`,
});

async function measure(name: string, make: (outboxDir: string) => Mailer, burst: boolean) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fifty-mail-bench-'));
  const mailer = make(path.join(dir, 'outbox'));
  await Promise.all(Array.from({ length: 50 }, (_, n) => mailer.send(confirmation(n)))); // warm: nodemailer loaded, folders made
  const elu = performance.eventLoopUtilization();
  const cpu = process.cpuUsage();
  const mainCpu = mainThreadCpuMs();
  const started = performance.now();
  if (burst) await Promise.all(Array.from({ length: COUNT }, (_, n) => mailer.send(confirmation(n))));
  else for (let n = 0; n < COUNT; n++) await mailer.send(confirmation(n));
  const wallMs = performance.now() - started;
  const mainMs = mainThreadCpuMs() - mainCpu;
  const activeMs = performance.eventLoopUtilization(elu).active;
  const { user, system } = process.cpuUsage(cpu);
  await mailer.close?.();
  const files = fs.readdirSync(path.join(dir, 'outbox')).length;
  fs.rmSync(dir, { recursive: true, force: true });
  console.log(
    `${name.padEnd(10)} ${burst ? 'all at once' : 'one by one '}  wall ${wallMs.toFixed(0).padStart(5)} ms  ` +
      `main thread CPU ${mainMs.toFixed(0).padStart(5)} ms (${((mainMs * 1000) / COUNT).toFixed(0).padStart(4)} µs/message)  ` +
      `loop active ${activeMs.toFixed(0).padStart(5)} ms  all threads CPU ${((user + system) / 1000).toFixed(0).padStart(5)} ms  files ${files - 50}`,
  );
}

const inThread = (outboxDir: string) => createMailer({ from: 'FIFTY <orders@fifty.local>', outboxDir });
const threaded = (outboxDir: string) => createThreadedMailer({ from: 'FIFTY <orders@fifty.local>', outboxDir });
for (let round = 0; round < 2; round++) {
  for (const burst of [true, false]) {
    await measure('in-thread', inThread, burst);
    await measure('worker', threaded, burst);
  }
}
