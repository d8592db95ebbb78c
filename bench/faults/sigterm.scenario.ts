// SIGTERM under streaming load, 10 runs (FAULTS_SIGTERM_RUNS): 200 open event streams (live stock on
// two products; waiting-room streams need a scheduled drop, so live-stock streams stand in for them),
// 50 keep-alive clients asking again and again, and `GET /%` during the drain. Per run: the exit code,
// requests reset unanswered, whether PostgreSQL is gone, and the time from the signal to the exit.
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { Scenario } from '../scenario-runner';
import { spawnShop, waitHealthy } from '../../tests/support/shop-process';

const RUNS = Number(process.env.FAULTS_SIGTERM_RUNS ?? 10);

function postmasterAlive(dataDir: string): boolean {
  try {
    process.kill(Number(fs.readFileSync(path.join(dataDir, 'postgres', 'data', 'postmaster.pid'), 'utf8').split('\n')[0]), 0);
    return true;
  } catch {
    return false;
  }
}

async function oneRun(): Promise<{ where: string; code: number | null; resets: number; answered: number; refused: number; pgGone: boolean; ms: number }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fifty-bench-sigterm-'));
  const shop = await spawnShop({ dataDir, env: { RATE_LIMITS: 'off', STREAMS_PER_ADDRESS: '1000', LOG_LEVEL: 'error' } });
  try {
    await waitHealthy(shop);
    const products = (await (await fetch(`${shop.base}/api/products`)).json()) as Array<{ id: string }>;
    const agentStreams = new http.Agent({ keepAlive: true, maxSockets: 1000 });
    const streams = await Promise.all(
      Array.from(
        { length: 200 },
        (_, i) =>
          new Promise<{ ended: Promise<string> }>((resolve) => {
            http
              .get(`${shop.base}/api/products/${products[i % 2]!.id}/stock/events`, { agent: agentStreams }, (res) => {
                const ended = new Promise<string>((done) => {
                  res.on('end', () => done('ended'));
                  res.on('error', () => done('reset'));
                });
                res.once('data', () => resolve({ ended }));
              })
              .on('error', () => resolve({ ended: Promise.resolve('reset') }));
          }),
      ),
    );
    const agent = new http.Agent({ keepAlive: true, maxSockets: 50 });
    const outcomes: string[] = [];
    let stop = false;
    const client = async () => {
      while (!stop) {
        const o = await new Promise<string>((resolve) => {
          http
            .get(`${shop.base}/api/products`, { agent }, (res) => {
              res.resume();
              res.on('end', () => resolve(String(res.statusCode)));
              res.on('error', () => resolve('reset'));
            })
            .on('error', (e: NodeJS.ErrnoException) => resolve(e.code === 'ECONNREFUSED' ? 'refused' : 'reset'));
        });
        outcomes.push(o);
        if (o !== '200') return; // 503 + Retry-After: a polite client waits; refused: the shop is gone
      }
    };
    const malformed = () =>
      new Promise<string>((resolve) => {
        let got = '';
        const socket = net.connect(shop.port, '127.0.0.1', () => socket.write('GET /% HTTP/1.1\r\nHost: shop\r\n\r\n'));
        socket.on('data', (c) => {
          got += c.toString();
          socket.destroy();
          resolve('answered');
        });
        socket.on('error', (e: NodeJS.ErrnoException) => resolve(e.code === 'ECONNREFUSED' ? 'refused' : 'reset'));
        socket.on('close', () => resolve(got ? 'answered' : 'reset'));
      });
    const clients = Array.from({ length: 50 }, () => client());
    while (outcomes.length < 200) await new Promise((r) => setTimeout(r, 20));
    const sent = Date.now();
    shop.child.kill('SIGTERM');
    const probes: string[] = [];
    while (Date.now() - sent < 800) probes.push(await malformed());
    const exit = await shop.exited;
    const ms = Date.now() - sent;
    stop = true;
    await Promise.all(clients);
    const streamEnds = await Promise.all(streams.map((s) => s.ended));
    agent.destroy();
    agentStreams.destroy();
    const all = [...outcomes, ...probes, ...streamEnds];
    const where = `clients ${outcomes.filter((o) => o === 'reset').length}, /% ${probes.filter((o) => o === 'reset').length}, streams ${streamEnds.filter((o) => o === 'reset').length}`;
    return {
      where,
      code: exit.code,
      resets: all.filter((o) => o === 'reset').length,
      answered: all.filter((o) => o !== 'reset' && o !== 'refused').length,
      refused: all.filter((o) => o === 'refused').length,
      pgGone: !postmasterAlive(dataDir),
      ms,
    };
  } finally {
    if (shop.child.exitCode === null) shop.child.kill('SIGKILL');
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

const scenario: Scenario = async () => {
  const runs = [];
  for (let i = 0; i < RUNS; i++) {
    const r = await oneRun();
    console.log(`run ${i + 1}: exit ${r.code}, ${r.answered} answered, ${r.refused} refused, ${r.resets} reset (${r.where}), PostgreSQL ${r.pgGone ? 'stopped' : 'RUNNING'}, ${r.ms} ms`);
    runs.push(r);
  }
  const maxMs = Math.max(...runs.map((r) => r.ms));
  const sorted = runs.map((r) => r.ms).sort((a, b) => a - b);
  return {
    rows: [
      { what: 'runs ending in exit 0', target: `${RUNS}/${RUNS}`, measured: `${runs.filter((r) => r.code === 0).length}/${RUNS}`, ok: runs.every((r) => r.code === 0) },
      { what: 'requests reset unanswered (all runs)', target: '0', measured: String(runs.reduce((n, r) => n + r.resets, 0)), ok: runs.every((r) => r.resets === 0) },
      { what: 'PostgreSQL stopped after exit', target: `${RUNS}/${RUNS}`, measured: `${runs.filter((r) => r.pgGone).length}/${RUNS}`, ok: runs.every((r) => r.pgGone) },
      { what: 'signal → exit (median / max)', target: '≤ 3 s', measured: `${sorted[Math.floor(RUNS / 2)]} / ${maxMs} ms`, ok: maxMs <= 3000 },
    ],
  };
};
export default scenario;
