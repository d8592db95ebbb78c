import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { EventEmitter } from 'node:events';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { z } from 'zod';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { describeEachDb, type TestApp } from '../../tests/support/build-test-app';
import { DEFAULT_HTTP_LIMITS, httpServerFactory, TOO_MANY_CONNECTIONS_MESSAGE, trustedPeer, type HttpLimits } from './http-limits';

// Real sockets against a listening app whose limits are shrunk to a few hundred milliseconds: every wait
// below ends on an event (a socket closed, an answer read), within those bounds.
const limits: Partial<HttpLimits> = {
  headersTimeoutMs: 300,
  bodyTimeoutMs: 300,
  requestTimeoutMs: 1_500,
  checkIntervalMs: 50,
  connectionsPerAddress: 3,
};

async function probeRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get('/api/test/ping', async () => ({ pong: true }));
  r.post('/api/test/note', { schema: { body: z.object({ note: z.string() }) } }, async () => ({ saved: true }));
  // Stands in for the owner's image upload: a route allowed more than a JSON form's bytes.
  r.post('/api/test/upload', { bodyLimit: 2 * 1024 * 1024, schema: { body: z.object({ note: z.string() }) } }, async () => ({ saved: true }));
}

const sockets: net.Socket[] = [];
afterEach(() => {
  for (const s of sockets.splice(0)) s.destroy();
});

let port = 0;
async function listen(t: TestApp): Promise<void> {
  if (t.app.server.listening) return;
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  port = (t.app.server.address() as AddressInfo).port;
}

function connect(localAddress = '127.0.0.1'): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ port, host: '127.0.0.1', localAddress }, () => resolve(socket));
    socket.on('error', reject);
    sockets.push(socket);
  });
}

const closed = (socket: net.Socket) =>
  new Promise<string>((resolve) => {
    let got = '';
    socket.on('data', (d) => (got += d.toString()));
    if (socket.destroyed) resolve(got);
    else socket.once('close', () => resolve(got));
  });

/** Sends one raw request and reads its answer (status, headers, body) by its Content-Length. */
function ask(socket: net.Socket, raw: string): Promise<{ status: number; headers: Record<string, string>; body: string }> {
  return new Promise((resolve, reject) => {
    let buf = '';
    const onData = (d: Buffer) => {
      buf += d.toString();
      const end = buf.indexOf('\r\n\r\n');
      if (end < 0) return;
      const [statusLine, ...lines] = buf.slice(0, end).split('\r\n');
      const headers = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
      const body = buf.slice(end + 4);
      if (body.length < Number(headers['content-length'] ?? 0)) return;
      socket.off('data', onData);
      resolve({ status: Number(statusLine!.split(' ')[1]), headers, body });
    };
    socket.on('data', onData);
    socket.once('close', () => reject(new Error(`closed before an answer: ${buf.slice(0, 80)}`)));
    socket.write(raw);
  });
}

const GET_PING = 'GET /api/test/ping HTTP/1.1\r\nHost: shop.test\r\n\r\n';
/** Headers and the first bytes of a body (within the route's limit), then nothing. */
const stalledPost = (url: string, length: number) =>
  `POST ${url} HTTP/1.1\r\nHost: shop.test\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\n\r\n{"note":"`;

describeEachDb(
  'HTTP limits: slow clients and sockets per address',
  (t) => {
    test('a body that stalls is cut off at the body deadline while others are served', { timeout: 10_000 }, async () => {
      await listen(t());
      const stalled = await connect();
      const done = closed(stalled);
      stalled.write(stalledPost('/api/test/note', 10_000));
      const other = await connect('127.0.0.2');
      expect((await ask(other, GET_PING)).status).toBe(200);
      // Closed by the shop (the client never ends it): without a deadline this never resolves.
      expect(await done).toBe('');
    });

    test('headers that never finish are cut off at the headers deadline with 408', { timeout: 10_000 }, async () => {
      await listen(t());
      const slow = await connect();
      const done = closed(slow);
      slow.write('GET /api/test/ping HTTP/1.1\r\nHost: shop.test\r\n');
      expect(await done).toMatch(/^HTTP\/1\.1 408/);
    });

    test('a route allowed a large body (an image upload) keeps the longer whole-request deadline', { timeout: 10_000 }, async () => {
      await listen(t());
      const form = await connect();
      const upload = await connect('127.0.0.2');
      const formClosed = closed(form);
      let uploadOpen = true;
      const uploadClosed = closed(upload).then((got) => {
        uploadOpen = false;
        return got;
      });
      upload.write(stalledPost('/api/test/upload', 1_000_000));
      form.write(stalledPost('/api/test/note', 10_000));
      await formClosed;
      expect(uploadOpen).toBe(true);
      // …and it too ends, at the whole-request deadline, with Node's 408.
      expect(await uploadClosed).toMatch(/^HTTP\/1\.1 408/);
    });

    test('one address holds at most the cap: the next socket is answered 429 + Retry-After, another address is served', async () => {
      await listen(t());
      const held = [];
      for (let i = 0; i < 3; i++) {
        const s = await connect();
        expect((await ask(s, GET_PING)).status).toBe(200);
        held.push(s);
      }
      const fourth = await connect();
      const refused = await ask(fourth, GET_PING);
      expect(refused.status).toBe(429);
      expect(refused.headers['retry-after']).toBe('5');
      expect(JSON.parse(refused.body)).toEqual({ message: TOO_MANY_CONNECTIONS_MESSAGE });
      await closed(fourth);

      const other = await connect('127.0.0.2');
      expect((await ask(other, GET_PING)).status).toBe(200);

      // Past twice the cap, a socket is closed at once, unread.
      for (let i = 0; i < 3; i++) await connect();
      const flood = await connect();
      expect(await closed(flood)).toBe('');

      // A socket given back makes room again.
      held.pop()!.destroy();
      for (const s of sockets.slice(-4)) s.destroy();
      await expect
        .poll(async () => {
          const s = await connect();
          return ask(s, GET_PING).then((r) => r.status, () => 0);
        })
        .toBe(200);
    });
  },
  // Loopback is no trusted proxy here, so the test's own connections are counted.
  { env: { TRUST_PROXY: '192.0.2.1' }, seed: false, deps: { httpLimits: limits, extraRoutes: probeRoutes } },
);

describeEachDb(
  'HTTP limits behind a trusted proxy',
  (t) => {
    test("a trusted proxy's sockets are not capped (it carries many clients and caps them itself)", async () => {
      await listen(t());
      for (let i = 0; i < 6; i++) {
        const s = await connect();
        expect((await ask(s, GET_PING)).status).toBe(200);
      }
    });
  },
  { seed: false, deps: { httpLimits: limits, extraRoutes: probeRoutes } },
);

describe('sockets per network address', () => {
  test('IPv6 counts by its /48 (IPV6_PREFIX), IPv4-mapped as IPv4; a socket given back frees its place', () => {
    const server = httpServerFactory({ ...DEFAULT_HTTP_LIMITS, connectionsPerAddress: 1 }, { trusted: trustedPeer('192.0.2.1'), ipv6Prefix: 48 })(
      () => undefined,
      {},
    ) as unknown as EventEmitter;
    // The cap's own listener (the last one added), given stand-in sockets.
    const count = server.listeners('connection').at(-1) as (socket: unknown) => void;
    const socket = (remoteAddress: string) => Object.assign(new EventEmitter(), { remoteAddress, destroy: vi.fn() });
    const open = (address: string) => {
      const s = socket(address);
      count(s);
      return s;
    };
    // One per /48 under the cap, the second tagged (answered 429), the third past twice the cap closed at once.
    const a = open('2001:db8:1:1::1');
    open('2001:db8:1:2::7');
    const third = open('2001:db8:1:ffff::1');
    expect(a.destroy).not.toHaveBeenCalled();
    expect(third.destroy).toHaveBeenCalled();
    // Another /48 has its own count.
    expect(open('2001:db8:2::1').destroy).not.toHaveBeenCalled();
    // IPv4 and its IPv4-mapped IPv6 form are one address.
    open('198.51.100.7');
    open('::ffff:198.51.100.7');
    expect(open('198.51.100.7').destroy).toHaveBeenCalled();
    // Closing gives the place back.
    third.emit('close');
    a.emit('close');
    expect(open('2001:db8:1:3::1').destroy).not.toHaveBeenCalled();
    // A trusted proxy is never counted.
    for (let i = 0; i < 5; i++) expect(open('192.0.2.1').destroy).not.toHaveBeenCalled();
  });
});
