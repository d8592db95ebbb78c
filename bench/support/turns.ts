// Interleaved load measurement shared by the throughput benches: every target gets the same total
// time in short turns taken one after another, so a burst of other work on a shared machine lands
// on all of them instead of on one.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import autocannon from 'autocannon';

const clockTicks = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout?.trim()) || 100;

/** CPU seconds (user + system) a process has used so far; null where /proc is missing. */
export function cpuSeconds(pid: number): number | null {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) / clockTicks;
  } catch {
    return null;
  }
}

export const median = (xs: number[]) => {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

export interface Target {
  name: string;
  url: string;
  pid: number;
  headers?: Record<string, string>;
}

export interface Figures {
  /** Requests / seconds over all turns. */
  rps: number;
  /** Median of the turns' requests per second. */
  rpsMedian: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
  mbps: number;
  /** Server CPU time per request: robust to other load on a shared machine. */
  cpuUsPerReq: number | null;
}

export async function measureInTurns(
  targets: Target[],
  opts: { seconds: number; rounds: number; connections: number; warmupSeconds?: number },
): Promise<Figures[]> {
  const slice = opts.seconds / opts.rounds;
  const load = (t: Target, duration: number) =>
    autocannon({ url: t.url, connections: opts.connections, duration, headers: t.headers });
  for (const t of targets) {
    process.stdout.write(`warm-up ${t.name}… `);
    await load(t, opts.warmupSeconds ?? 2);
  }
  console.log(
    `\nmeasuring: ${opts.rounds} round(s) of ${slice} s x ${opts.connections} connections per target`,
  );
  const acc = targets.map(() => ({
    requests: 0,
    bytes: 0,
    seconds: 0,
    cpu: 0 as number | null,
    rps: [] as number[],
    p50: [] as number[],
    p99: [] as number[],
    non2xx: 0,
    errors: 0,
  }));
  for (let round = 0; round < opts.rounds; round++) {
    for (const [i, t] of targets.entries()) {
      const before = cpuSeconds(t.pid);
      const r = await load(t, slice);
      const after = cpuSeconds(t.pid);
      const a = acc[i]!;
      a.requests += r.requests.total;
      a.bytes += r.throughput.total;
      a.seconds += r.duration;
      a.cpu = a.cpu !== null && before !== null && after !== null ? a.cpu + (after - before) : null;
      a.rps.push(r.requests.total / r.duration);
      a.p50.push(r.latency.p50);
      a.p99.push(r.latency.p99);
      a.non2xx += r.non2xx;
      a.errors += r.errors;
    }
    process.stdout.write(`round ${round + 1}/${opts.rounds} `);
  }
  console.log('');
  return acc.map((a) => ({
    rps: Math.round(a.requests / a.seconds),
    rpsMedian: Math.round(median(a.rps)),
    p50: median(a.p50),
    p99: median(a.p99),
    non2xx: a.non2xx,
    errors: a.errors,
    mbps: Math.round((a.bytes / a.seconds / 1024 / 1024) * 10) / 10,
    cpuUsPerReq: a.cpu !== null && a.requests ? Math.round((a.cpu * 1e6) / a.requests) : null,
  }));
}
