// The mail worker thread: runs the in-thread mailer (createMailer, unchanged) off the shop's main thread, so
// rendering a message (nodemailer) and writing its outbox file (open, write, fsync, rename) use the box's
// other core (mail-thread.ts; docs/operations.md "Mail"). Compiled to dist/server/mail-worker.js.
import { parentPort, workerData } from 'node:worker_threads';
import { createMailer } from './mail.service';
import type { MailWorkerData, ToMailWorker, FromMailWorker } from './mail-thread';

const port = parentPort;
if (!port) throw new Error('mail-worker.ts runs as a worker thread (mail-thread.ts starts it)');
const data = workerData as MailWorkerData;
const pendingCount = new Int32Array(data.pendingCount);
const post = (reply: FromMailWorker) => port.postMessage(reply);

const mailer = createMailer({
  ...data.options,
  // The main thread's logger (pino) writes these; what createMailer logs carries no address.
  log: {
    warn: (obj, msg) => post({ type: 'log', level: 'warn', obj, msg }),
    info: (obj, msg) => post({ type: 'log', level: 'info', obj, msg }),
  },
});

/** pending() and deadLetters() are synchronous on the main thread: they read these counts from shared memory. */
const publishPending = () => {
  Atomics.store(pendingCount, 0, mailer.pending?.() ?? 0);
  Atomics.store(pendingCount, 1, mailer.deadLetters?.() ?? 0);
};
// Kept mail also changes on createMailer's own sending, retry timer and start-up scan of the spool.
setInterval(publishPending, 200).unref();

port.on('message', (request: ToMailWorker) => {
  void handle(request);
});

async function handle(request: ToMailWorker): Promise<void> {
  try {
    if (request.type === 'send') await mailer.send(request.message);
    else if (request.type === 'retryNow') await mailer.retryNow?.();
    else await mailer.close?.();
    publishPending();
    post({ type: 'done', id: request.id });
  } catch (err) {
    publishPending();
    post({ type: 'done', id: request.id, error: err instanceof Error ? err.message : String(err) });
  }
}

post({ type: 'ready' });
