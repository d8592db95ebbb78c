// /healthz asks "can this shop write?" as well as "does the database answer?" (docs/operations.md):
// a full or failing disk leaves `select 1` working while every checkout fails. The probe writes and
// fsyncs a small file in DATA_DIR (where the embedded PostgreSQL, the outbox and uploads live), at most
// once per cache period; failures the error handler saw from the database itself count too.
import fs from 'node:fs/promises';
import path from 'node:path';

const PROBE_BYTES = 8 * 1024;
let lastStorageFailureAt = 0;

/** Called by the error handler when the database or the file system reported disk full / I/O error. */
export function noteStorageFailure(now = Date.now()): void {
  lastStorageFailureAt = now;
}

export interface WriteProbe {
  /** null when the shop can write, else a short reason for operators (no paths or personal data). */
  check(): Promise<string | null>;
}

export function createWriteProbe(opts: { dataDir: string; cacheMs?: number; recentFailureMs?: number }): WriteProbe {
  const cacheMs = opts.cacheMs ?? 2_000;
  const recentFailureMs = opts.recentFailureMs ?? 5_000;
  const file = path.join(opts.dataDir, '.write-probe');
  let cached: { at: number; result: Promise<string | null> } | null = null;

  async function probe(): Promise<string | null> {
    let handle: fs.FileHandle | undefined;
    try {
      handle = await fs.open(file, 'w', 0o600);
      await handle.write(Buffer.alloc(PROBE_BYTES, 0x2e));
      await handle.sync();
      return null;
    } catch (err) {
      return `cannot write to the data directory (${(err as NodeJS.ErrnoException).code ?? 'error'})`;
    } finally {
      await handle?.close().catch(() => undefined);
      // Leave no probe file behind to fill the disk (it is rewritten at the next probe anyway).
      await fs.rm(file, { force: true }).catch(() => undefined);
    }
  }

  return {
    async check() {
      const now = Date.now();
      if (!cached || now - cached.at >= cacheMs) cached = { at: now, result: probe() };
      const fileResult = await cached.result;
      if (fileResult) return fileResult;
      if (now - lastStorageFailureAt < recentFailureMs) return 'the database reported a full disk or an I/O error';
      return null;
    },
  };
}
