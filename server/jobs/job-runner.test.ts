import type { FastifyBaseLogger } from 'fastify';
import { afterEach, expect, test, vi } from 'vitest';
import { createJobRunner } from './job-runner';

// A job's failure is logged and tried again at its next run; it never reaches the process (an uncaught
// exception or rejection stops the shop: server/main.ts), however the job fails.

afterEach(() => void vi.useRealTimers());

function fakeLog() {
  const errors: Array<{ job: string; message: string }> = [];
  const log = {
    error: (obj: { err: Error; job: string }) => errors.push({ job: obj.job, message: obj.err.message }),
  } as unknown as FastifyBaseLogger;
  return { log, errors };
}

test('a job that throws before its first await, and one whose promise rejects (a lost connection): both logged, both run again', async () => {
  vi.useFakeTimers();
  const { log, errors } = fakeLog();
  const jobs = createJobRunner(log);
  let syncRuns = 0;
  let asyncRuns = 0;
  jobs.every('throws-at-once', 1_000, () => {
    syncRuns++;
    throw new Error('Client has encountered a connection error and is not queryable');
  });
  jobs.every('rejects', 1_000, async () => {
    asyncRuns++;
    throw new Error('Connection terminated unexpectedly');
  });
  jobs.start();
  await vi.advanceTimersByTimeAsync(1_000);
  await vi.advanceTimersByTimeAsync(1_000);
  expect(syncRuns).toBe(2);
  expect(asyncRuns).toBe(2);
  expect(errors).toEqual([
    { job: 'throws-at-once', message: 'Client has encountered a connection error and is not queryable' },
    { job: 'rejects', message: 'Connection terminated unexpectedly' },
    { job: 'throws-at-once', message: 'Client has encountered a connection error and is not queryable' },
    { job: 'rejects', message: 'Connection terminated unexpectedly' },
  ]);
  await jobs.stop();
});
