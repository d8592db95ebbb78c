import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { createMailer, type Mailer, type MailerOptions, type MailMessage } from './mail.service';

/**
 * The mailer on a worker thread (MAIL_THREAD=on; docs/operations.md "Mail"). The worker runs createMailer
 * unchanged; this side posts each message and settles `send` when the worker says it is kept on disk (in the
 * spool, or written to the outbox), so the shop's thread no longer renders messages (nodemailer)
 * nor writes outbox files (bench/README.md, bench:draw: about 0.75 ms of a draw entry's 4.6 ms).
 *
 * Delivery is AT LEAST ONCE: every message stays here until the worker acknowledges it. If the worker dies
 * (crash, out of memory, terminated), a new one is started and sent every unacknowledged message again; one
 * the dead worker had already written or sent, but not acknowledged, goes out twice. A worker that cannot
 * start at all (or dies 3 times in a row without acknowledging anything) is replaced by createMailer on
 * this thread, with a warning in the log.
 */

export type MailWorkerOptions = Omit<MailerOptions, 'log'>;

/** What mail-worker.ts receives as workerData. */
export interface MailWorkerData {
  options: MailWorkerOptions;
  /** Two Int32s: the worker's pending() and deadLetters() counts, so both stay synchronous here. */
  pendingCount: SharedArrayBuffer;
}
export type ToMailWorker =
  | { type: 'send'; id: number; message: MailMessage }
  | { type: 'retryNow'; id: number }
  | { type: 'close'; id: number };
export type FromMailWorker =
  | { type: 'ready' }
  | { type: 'done'; id: number; error?: string }
  | { type: 'log'; level: 'warn' | 'info'; obj: object; msg: string };

export interface ThreadedMailerOptions extends MailerOptions {
  /** The worker's module; default: `defaultMailWorkerFile()`. */
  workerFile?: string;
  /**
   * Start the worker now rather than with the first message. The shop does (services.ts): a draw's or a
   * drop's first second is when the first messages come, and starting the worker then (loading nodemailer,
   * compiling) took a core for about a second while the entries queued (bench/README.md, bench:draw).
   */
  startAtOnce?: boolean;
}

export interface ThreadedMailer extends Mailer {
  pending(): number;
  deadLetters(): number;
  retryNow(): Promise<void>;
  close(): Promise<void>;
  /** 'thread' while a worker sends the mail; 'in-thread' once fallen back to createMailer on this thread. */
  mode(): 'thread' | 'in-thread';
  /** TEST ONLY: ends the current worker abruptly, as a crash would; the mailer starts another. */
  terminateWorkerForTests(): Promise<void>;
}

/** Crashes in a row without one acknowledgement before giving up on the worker (a message that kills it). */
const MAX_CRASHES_WITHOUT_PROGRESS = 3;

/**
 * mail-worker.ts beside this file when running from TypeScript (tsx, vitest); compiled, the worker is its
 * own entry, dist/server/mail-worker.js, next to main.js (scripts/build-server.mjs), while this code may sit
 * in main.js or in a shared chunk under dist/server/chunks/.
 */
export function defaultMailWorkerFile(): string {
  const here = fileURLToPath(import.meta.url);
  if (here.endsWith('.ts')) return path.join(path.dirname(here), 'mail-worker.ts');
  let dir = path.dirname(here);
  if (path.basename(dir) === 'chunks') dir = path.dirname(dir);
  return path.join(dir, 'mail-worker.js');
}

/**
 * How a worker thread is started on `file`. Compiled (.js): as is. From TypeScript (tsx, vitest): through tsx's
 * documented API (`register()` from tsx/esm/api, then import the .ts file), as Node 20 workers do not apply an
 * `--import tsx` given in their execArgv and vitest transforms only its own thread's modules. Either way the
 * worker inherits the process's flags (--cpu-prof included: it then writes its own profile).
 */
function workerEntry(file: string): { entry: string; evaluate: boolean } {
  if (!file.endsWith('.ts')) return { entry: file, evaluate: false };
  const tsxApi = import.meta.resolve('tsx/esm/api');
  const entry = `import(${JSON.stringify(tsxApi)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(pathToFileURL(file).href)}); });`;
  return { entry, evaluate: true };
}

const noop = () => undefined;

interface InFlight {
  request: ToMailWorker;
  resolve(): void;
  reject(err: Error): void;
  /** Resolves once the request is settled either way. */
  settled: Promise<void>;
}

export function createThreadedMailer(opts: ThreadedMailerOptions): ThreadedMailer {
  const { workerFile = defaultMailWorkerFile(), log, startAtOnce = false, ...options } = opts;
  const mailerOptions: MailWorkerOptions = options;
  const pendingCount = new Int32Array(new SharedArrayBuffer(8));
  const inFlight = new Map<number, InFlight>();
  let nextId = 1;
  let worker: Worker | null = null;
  let ready = false;
  let everReady = false;
  let crashesWithoutProgress = 0;
  let fallback: Mailer | null = null;
  let closed = false;
  let closing: Promise<void> | null = null;

  /** Keeps the process alive only while a request waits for the worker. */
  function refreshRef() {
    if (!worker) return;
    if (inFlight.size > 0) worker.ref();
    else worker.unref();
  }

  function start() {
    ready = false;
    let started: Worker;
    try {
      const { entry, evaluate } = workerEntry(workerFile);
      started = new Worker(entry, {
        eval: evaluate,
        workerData: { options: mailerOptions, pendingCount: pendingCount.buffer as SharedArrayBuffer } satisfies MailWorkerData,
      });
    } catch (err) {
      fallBack(err);
      return;
    }
    worker = started;
    refreshRef();
    let failure: unknown = null;
    started.on('message', (reply: FromMailWorker) => {
      if (reply.type === 'ready') {
        if (started !== worker) return;
        ready = true;
        everReady = true;
        for (const entry of inFlight.values()) started.postMessage(entry.request);
      } else if (reply.type === 'done') {
        // An acknowledgement from a worker that has since died still counts: the message was handed over.
        crashesWithoutProgress = 0;
        settle(reply.id, reply.error);
      } else {
        log?.[reply.level](reply.obj, reply.msg);
      }
    });
    started.on('error', (err) => {
      failure = err;
    });
    started.on('exit', (exitCode) => {
      if (started !== worker) return;
      worker = null;
      ready = false;
      if (!everReady) return fallBack(failure ?? new Error(`mail worker exited with code ${exitCode}`));
      if (++crashesWithoutProgress >= MAX_CRASHES_WITHOUT_PROGRESS) return fallBack(failure);
      // Only the error's code: a crash's message could quote a mail's address.
      log?.warn(
        { exitCode, code: (failure as NodeJS.ErrnoException | null)?.code, unacknowledged: inFlight.size },
        'mail worker stopped: mail not yet acknowledged is sent again by a new worker',
      );
      start();
    });
  }

  function settle(id: number, error?: string) {
    const entry = inFlight.get(id);
    if (!entry) return; // already settled (sent again after a crash, acknowledged twice)
    inFlight.delete(id);
    refreshRef();
    if (error === undefined) entry.resolve();
    else entry.reject(new Error(error));
  }

  /** createMailer on this thread from now on; whatever waited for the worker goes to it. */
  function fallBack(err: unknown) {
    if (fallback) return;
    log?.warn(
      { workerFile, code: (err as NodeJS.ErrnoException | null)?.code },
      'mail worker could not start: mail is sent from the main thread',
    );
    const mailer = createMailer({ ...mailerOptions, log });
    fallback = mailer;
    for (const [id, entry] of inFlight) {
      runInThread(mailer, entry.request).then(
        () => settle(id),
        (e: unknown) => settle(id, e instanceof Error ? e.message : String(e)),
      );
    }
  }

  function runInThread(mailer: Mailer, request: ToMailWorker): Promise<void> {
    if (request.type === 'send') return mailer.send(request.message);
    if (request.type === 'retryNow') return mailer.retryNow?.() ?? Promise.resolve();
    return mailer.close?.() ?? Promise.resolve();
  }

  /** Hands a request to the worker (or to the fallback) and settles when it is acknowledged. */
  function ask(make: (id: number) => ToMailWorker): Promise<void> {
    const request = make(nextId++);
    if (fallback) return runInThread(fallback, request);
    ensureStarted();
    let settle!: Pick<InFlight, 'resolve' | 'reject'>;
    const promise = new Promise<void>((resolve, reject) => (settle = { resolve, reject }));
    inFlight.set(request.id, { request, ...settle, settled: promise.then(noop, noop) });
    refreshRef();
    if (worker && ready) worker.postMessage(request);
    return promise;
  }

  /**
   * Without startAtOnce the worker starts with the first request (idle memory: about 15 MB more RSS once it
   * runs, as nodemailer's lazy load in mail.service.ts), or at once when an earlier run left mail kept for a
   * retry.
   */
  let started = false;
  function ensureStarted() {
    if (started || fallback) return;
    started = true;
    start();
  }
  if (startAtOnce) ensureStarted();
  const queueDir = options.queueDir ?? path.join(path.dirname(options.outboxDir), 'mail-queue');
  void fs.readdir(queueDir).then(
    (files) => {
      if (!closed && files.some((f) => f.endsWith('.json'))) ensureStarted();
    },
    noop, // no queue folder: nothing kept
  );

  return {
    send(message) {
      if (!closed) return ask((id) => ({ type: 'send', id, message }));
      // After close(): one message through createMailer here, closed again at once (nothing kept running).
      const once = createMailer({ ...mailerOptions, log });
      return once.send(message).finally(() => once.close?.());
    },
    pending: () => (fallback ? (fallback.pending?.() ?? 0) : Atomics.load(pendingCount, 0)),
    deadLetters: () => (fallback ? (fallback.deadLetters?.() ?? 0) : Atomics.load(pendingCount, 1)),
    // After close() the worker is gone: kept mail waits for the next start, as createMailer's does.
    retryNow: () => (closed ? Promise.resolve() : ask((id) => ({ type: 'retryNow', id }))),
    close() {
      closed = true;
      closing ??= (async () => {
        // The messages in flight are spooled first (through a new worker if this one dies meanwhile); a retry
        // under way is not waited for: the worker's close cuts it off within its bound.
        await Promise.all([...inFlight.values()].filter((entry) => entry.request.type === 'send').map((entry) => entry.settled));
        if (!started && !fallback) return; // never started: nothing to close
        await ask((id) => ({ type: 'close', id }));
        const last = worker;
        worker = null; // its exit is not a crash
        await last?.terminate();
      })();
      return closing;
    },
    mode: () => (fallback ? 'in-thread' : 'thread'),
    async terminateWorkerForTests() {
      await worker?.terminate();
    },
  };
}
