import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, test } from 'vitest';
import { createEventStreamHub, type EventStreamHub, type StreamRefusal } from './event-stream-hub';

/**
 * A real HTTP server in front of one hub, shaped like the shop's stream routes: the slot is reserved
 * first, then the route "reads" (a random delay standing for the database), then the stream starts.
 * The client's address is taken from a header so one test can be many networks.
 */
async function serve(opts: { maxStreams: number; perAddress: number; heartbeatMs?: number; readMs?: () => number }) {
  const hub = createEventStreamHub<{ n: number }>({
    maxStreams: opts.maxStreams,
    perAddress: opts.perAddress,
    ipv6Prefix: 48,
    heartbeatMs: opts.heartbeatMs,
    messages: { full: 'full here', perAddress: 'too many from you' },
    retryAfterSeconds: { full: 5, perAddress: 30 },
  });
  let started = 0;
  const responses: http.ServerResponse[] = [];
  const server = http.createServer((req, res) => {
    responses.push(res);
    const ip = String(req.headers['x-ip'] ?? '192.0.2.1');
    const slot = hub.reserve(req, res, ip);
    if (slot.refused) {
      const r = slot as StreamRefusal;
      res.writeHead(r.status, { 'content-type': 'application/json', 'retry-after': String(r.retryAfterSeconds) });
      res.end(JSON.stringify({ message: r.message }));
      return;
    }
    setTimeout(() => {
      if (slot.start('topic', { n: ++started }, 'event: hello\ndata: {}\n\n')) return;
    }, opts.readMs?.() ?? 0);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { hub, server, base, responses };
}

interface Opened {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: () => string;
  close: () => void;
}

/** Opens a stream and resolves with its status once the response head arrives. */
function open(base: string, ip: string): Promise<Opened> {
  return new Promise((resolve, reject) => {
    let body = '';
    const req = http.get(base, { headers: { 'x-ip': ip }, agent: false }, (res) => {
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('error', () => undefined);
      resolve({ status: res.statusCode ?? 0, headers: res.headers, body: () => body, close: () => req.destroy() });
    });
    req.on('error', reject);
  });
}

/** Sends the request and hangs up at once, or after a moment, never reading the answer. */
function openAndDrop(base: string, ip: string, afterMs: number): Promise<void> {
  return new Promise((resolve) => {
    const req = http.get(base, { headers: { 'x-ip': ip }, agent: false });
    req.on('error', () => undefined);
    req.on('close', () => resolve());
    if (afterMs === 0) req.on('finish', () => req.destroy());
    else setTimeout(() => req.destroy(), afterMs);
  });
}

let current: { hub: EventStreamHub<{ n: number }>; server: http.Server } | null = null;
afterEach(async () => {
  if (!current) return;
  current.hub.closeAll();
  current.server.closeAllConnections();
  await new Promise((r) => current!.server.close(r));
  current = null;
});

describe('event-stream hub', () => {
  test('3,000 streams opened and dropped at every moment (before, during and after the first read) leave 0 slots; a new stream is 200', async () => {
    const s = await serve({ maxStreams: 20, perAddress: 20, readMs: () => Math.floor(Math.random() * 4) });
    current = s;
    // 20 slots, 3,000 drops: a single leaked slot per 150 drops would fill the hub.
    for (let batch = 0; batch < 30; batch++) {
      await Promise.all(
        Array.from({ length: 100 }, (_, i) => openAndDrop(s.base, `198.51.100.${i}`, i % 4 === 0 ? 0 : (i % 7))),
      );
    }
    await expect.poll(() => s.hub.size, { timeout: 5000 }).toBe(0);
    const fresh = await open(s.base, '198.51.100.1');
    expect(fresh.status).toBe(200);
    expect(fresh.headers['content-type']).toMatch(/^text\/event-stream/);
    await expect.poll(() => fresh.body()).toContain('event: hello');
    expect(s.hub.size).toBe(1);
    fresh.close();
    await expect.poll(() => s.hub.size).toBe(0);
  });

  test('one address holds at most its cap (429, Retry-After, { message }); another address still gets a stream; IPv6 counts by /48', async () => {
    const s = await serve({ maxStreams: 100, perAddress: 3 });
    current = s;
    const mine = await Promise.all([1, 2, 3].map(() => open(s.base, '203.0.113.9')));
    expect(mine.map((m) => m.status)).toEqual([200, 200, 200]);
    const fourth = await open(s.base, '203.0.113.9');
    expect(fourth.status).toBe(429);
    expect(fourth.headers['retry-after']).toBe('30');
    await expect.poll(() => fourth.body()).toBe(JSON.stringify({ message: 'too many from you' }));
    const other = await open(s.base, '203.0.113.10');
    expect(other.status).toBe(200);

    // Three addresses of one /48 are one network; a neighbouring /48 is another.
    const v6 = await Promise.all(['2001:db8:1:1::1', '2001:db8:1:2::1', '2001:db8:1:ffff::9'].map((ip) => open(s.base, ip)));
    expect(v6.map((m) => m.status)).toEqual([200, 200, 200]);
    expect((await open(s.base, '2001:db8:1:abcd::77')).status).toBe(429);
    expect((await open(s.base, '2001:db8:2::1')).status).toBe(200);
    expect(s.hub.heldBy('2001:db8:1::5')).toBe(3);

    // A stream that ends gives its address its slot back.
    mine[0]!.close();
    await expect.poll(() => s.hub.heldBy('203.0.113.9')).toBe(2);
    expect((await open(s.base, '203.0.113.9')).status).toBe(200);
  });

  test('the instance cap refuses with 503 and Retry-After; heartbeats reach open streams; closeAll ends them all', async () => {
    const s = await serve({ maxStreams: 2, perAddress: 10, heartbeatMs: 20 });
    current = s;
    const a = await open(s.base, '192.0.2.10');
    const b = await open(s.base, '192.0.2.11');
    const refused = await open(s.base, '192.0.2.12');
    expect(refused.status).toBe(503);
    expect(refused.headers['retry-after']).toBe('5');
    await expect.poll(() => refused.body()).toBe(JSON.stringify({ message: 'full here' }));
    await expect.poll(() => a.body()).toContain(': heartbeat');
    expect(s.hub.streamsOf('topic')).toHaveLength(2);
    s.hub.broadcast('topic', 'event: x\ndata: 1\n\n');
    await expect.poll(() => b.body()).toContain('event: x');

    s.hub.closeAll();
    await expect.poll(() => s.hub.size).toBe(0);
    expect((await open(s.base, '192.0.2.13')).status).toBe(503);
  });

  test('a stream is one unchunked body (Connection: close); a client that stops reading keeps one waiting frame, the newest, sent when it reads again', async () => {
    const s = await serve({ maxStreams: 10, perAddress: 10 });
    current = s;
    let body = '';
    let response: http.IncomingMessage | null = null;
    const req = http.get(s.base, { headers: { 'x-ip': '192.0.2.20' }, agent: false }, (res) => {
      response = res;
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
    });
    req.on('error', () => undefined);
    await expect.poll(() => body).toContain('event: hello');
    expect(response!.headers['transfer-encoding']).toBeUndefined();
    expect(response!.headers.connection).toBe('close');
    expect(body).toBe('event: hello\ndata: {}\n\n');

    // The client stops reading; frames are written until the socket is full (kernel buffers included).
    response!.pause();
    const res = s.responses[0]!;
    const [stream] = s.hub.streamsOf('topic');
    const filler = `event: fill\ndata: ${'x'.repeat(8 * 1024)}\n\n`;
    let filled = 0;
    while (!res.writableNeedDrain) {
      stream!.send(filler);
      filled++;
      await new Promise((r) => setImmediate(r));
    }
    for (const n of [1, 2, 3]) stream!.send(`event: state\ndata: ${n}\n\n`);
    expect(res.writableLength).toBeLessThan(64 * 1024);
    response!.resume();
    await expect.poll(() => body.split('event: fill').length - 1, { timeout: 10_000 }).toBe(filled);
    await expect.poll(() => body).toContain('event: state\ndata: 3\n\n');
    expect(body).not.toContain('data: 1\n');
    expect(body).not.toContain('data: 2\n');
    req.destroy();
  });

  test('channels share one set of caps (per instance, per address) but not their topics; each refuses in its own words', async () => {
    const hub = createEventStreamHub<unknown>({ maxStreams: 3, perAddress: 2, ipv6Prefix: 48 });
    const stock = hub.channel<undefined>('stock', { messages: { full: 'stock full', perAddress: 'stock: too many' }, retryMs: 3000 });
    const room = hub.channel<{ who: string }>('drop', { messages: { full: 'room full', perAddress: 'room: too many' } });
    const server = http.createServer((req, res) => {
      const ip = String(req.headers['x-ip'] ?? '192.0.2.1');
      const channel = req.url === '/stock' ? stock : room;
      const slot = channel.reserve(req, res, ip);
      if (slot.refused) {
        res.writeHead(slot.status, { 'content-type': 'application/json', 'retry-after': String(slot.retryAfterSeconds) });
        res.end(JSON.stringify({ message: slot.message }));
        return;
      }
      // Both channels follow the same product id: a topic each.
      slot.start('p-1', (req.url === '/stock' ? undefined : { who: ip }) as never, `event: ${req.url!.slice(1)}\ndata: {}\n\n`);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    current = { hub: hub as unknown as EventStreamHub<{ n: number }>, server };

    const a = await open(`${base}/stock`, '203.0.113.1');
    const b = await open(`${base}/drop`, '203.0.113.1');
    expect([a.status, b.status]).toEqual([200, 200]);
    await expect.poll(() => a.body()).toBe('retry: 3000\n\nevent: stock\ndata: {}\n\n');
    // The address's cap counts both channels: its third stream, of either kind, is refused in that channel's words.
    const third = await open(`${base}/drop`, '203.0.113.1');
    expect(third.status).toBe(429);
    await expect.poll(() => third.body()).toBe(JSON.stringify({ message: 'room: too many' }));
    expect([stock.size, room.size, hub.size]).toEqual([1, 1, 2]);
    expect(stock.topics()).toEqual(['p-1']);
    expect(room.streamsOf('p-1').map((s) => s.meta.who)).toEqual(['203.0.113.1']);
    // A frame for one channel's topic never reaches the other's.
    room.broadcast('p-1', 'event: status\ndata: 1\n\n');
    await expect.poll(() => b.body()).toContain('event: status');
    expect(a.body()).not.toContain('event: status');
    // The instance cap counts both channels too.
    expect((await open(`${base}/drop`, '203.0.113.2')).status).toBe(200);
    const full = await open(`${base}/stock`, '203.0.113.3');
    expect(full.status).toBe(503);
    await expect.poll(() => full.body()).toBe(JSON.stringify({ message: 'stock full' }));
    a.close();
    await expect.poll(() => stock.size).toBe(0);
    expect(stock.has('p-1')).toBe(false);
    expect(room.has('p-1')).toBe(true);
  });
});
