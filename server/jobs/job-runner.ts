import type { FastifyBaseLogger } from 'fastify';

interface Job {
  name: string;
  everyMs: number;
  run: () => Promise<unknown>;
  timer?: NodeJS.Timeout;
  running?: Promise<unknown>;
}

/**
 * In-process interval jobs (hold expiry, reconciliation, session pruning). Every job is an
 * idempotent conditional update on the database, so several app instances may run them at once.
 */
export function createJobRunner(log: FastifyBaseLogger) {
  const jobs: Job[] = [];
  let started = false;

  function schedule(job: Job) {
    job.timer = setInterval(() => {
      if (job.running) return;
      // A job that throws before its first await is a failed run too, never an uncaught exception.
      job.running = Promise.resolve()
        .then(job.run)
        .catch((err: unknown) => log.error({ err, job: job.name }, 'job failed'))
        .finally(() => (job.running = undefined));
    }, job.everyMs);
    job.timer.unref();
  }

  return {
    every(name: string, everyMs: number, run: () => Promise<unknown>): void {
      const job: Job = { name, everyMs, run };
      jobs.push(job);
      if (started) schedule(job);
    },
    start(): void {
      if (started) return;
      started = true;
      jobs.forEach(schedule);
    },
    async stop(): Promise<void> {
      started = false;
      for (const job of jobs) clearInterval(job.timer);
      await Promise.all(jobs.map((j) => j.running));
    },
    /** Run every job once now (tests and shutdown). */
    async runAll(): Promise<void> {
      for (const job of jobs) await job.run();
    },
  };
}

export type JobRunner = ReturnType<typeof createJobRunner>;
