import http from 'node:http';
import type { Socket } from 'node:net';
import proxyAddr from '@fastify/proxy-addr';
import type { FastifyInstance, FastifyServerFactory, onRequestHookHandler } from 'fastify';
import { networkKey } from '../lib/network-address';
import { SHOPPER_BODY_LIMIT } from './json-body';

/** How long a client may take over a request, and how many sockets one network may hold (docs/operations.md, "In front of the shop"). */
export interface HttpLimits {
  /** The request line and headers must have arrived within this. */
  headersTimeoutMs: number;
  /** A JSON body must have arrived within this of its headers. */
  bodyTimeoutMs: number;
  /** Any request, headers and body, within this: the owner's 10 MB image upload over a slow line. */
  requestTimeoutMs: number;
  /** A socket with nothing read or written for this long is closed (a client that stopped reading). */
  idleTimeoutMs: number;
  /** An idle keep-alive socket is closed after this: above the usual 60 s of a load balancer in front. */
  keepAliveTimeoutMs: number;
  /** How often Node checks the headers and request timeouts (its default of 30 s would let them run over by as much). */
  checkIntervalMs: number;
  /** Open sockets one network address (IPv6 by IPV6_PREFIX) may hold; a trusted proxy's are not counted. */
  connectionsPerAddress: number;
}

export const DEFAULT_HTTP_LIMITS: HttpLimits = {
  headersTimeoutMs: 10_000,
  bodyTimeoutMs: 10_000,
  requestTimeoutMs: 120_000,
  // Longer than any handler works without writing (the owner's draw run captures up to 50 winners, paced;
  // an SSE stream writes a heartbeat every 15 s).
  idleTimeoutMs: 300_000,
  keepAliveTimeoutMs: 72_000,
  checkIntervalMs: 1_000,
  // Each browser opens up to six; with the 50 event streams one address may hold (STREAMS_PER_ADDRESS),
  // a crowd behind one NAT fits. One address alone can no longer reach the process's file limit.
  connectionsPerAddress: 256,
};

export const TOO_MANY_CONNECTIONS_MESSAGE = 'Too many open connections from your network. Please try again in a few seconds.';
const TOO_MANY_BODY = Buffer.from(JSON.stringify({ message: TOO_MANY_CONNECTIONS_MESSAGE }));
const RETRY_AFTER_S = '5';

const OVER_CAP = Symbol('overConnectionCap');
const BODY_DEADLINE = Symbol('bodyDeadline');
type TaggedSocket = Socket & { [OVER_CAP]?: true };
type TimedRequest = http.IncomingMessage & { [BODY_DEADLINE]?: NodeJS.Timeout };

const hasBody = (req: http.IncomingMessage) => {
  const length = req.headers['content-length'];
  return length === undefined ? req.headers['transfer-encoding'] !== undefined : length !== '0';
};

/** The request's body must be in within `ms`, else its socket is closed (the client is not sending it). */
function armBodyDeadline(req: TimedRequest, ms: number): void {
  if (!hasBody(req)) return;
  const timer = setTimeout(() => {
    if (!req.complete) req.socket.destroy();
  }, ms);
  timer.unref();
  req.once('end', () => clearTimeout(timer));
  req[BODY_DEADLINE] = timer;
}

/** A route that takes large bodies (an image upload) is held to requestTimeoutMs alone. */
const lengthenBodyDeadline: onRequestHookHandler = (request, _reply, done) => {
  clearTimeout((request.raw as TimedRequest)[BODY_DEADLINE]);
  done();
};

/** Routes allowed more than a JSON form's bytes get more time to send them. */
export function registerLongBodies(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => {
    if ((route.bodyLimit ?? SHOPPER_BODY_LIMIT) <= 1024 * 1024) return;
    const existing = route.onRequest;
    route.onRequest = [...(Array.isArray(existing) ? existing : existing ? [existing] : []), lengthenBodyDeadline];
  });
}

/** Whether a peer is a proxy the owner trusts (TRUST_PROXY): its connections carry many clients, and it caps them itself. */
export function trustedPeer(trustProxy: string): (address: string) => boolean {
  if (trustProxy === 'true') return () => true;
  const trust = proxyAddr.compile(trustProxy.split(',').map((v) => v.trim()));
  return (address) => trust(address, 0);
}

/**
 * The HTTP server under Fastify, with the limits a slow or greedy client meets before any route runs:
 * headers, body and whole-request deadlines; idle sockets closed; and a cap on the sockets one network
 * holds open. A socket over the cap is answered 429 + Retry-After and closed once its request arrives;
 * past twice the cap (a flood, not a crowd) it is closed at once, unread.
 */
export function httpServerFactory(limits: HttpLimits, opts: { trusted: (address: string) => boolean; ipv6Prefix: number }): FastifyServerFactory {
  return (handler) => {
    const server = http.createServer(
      {
        headersTimeout: limits.headersTimeoutMs,
        requestTimeout: limits.requestTimeoutMs,
        keepAliveTimeout: limits.keepAliveTimeoutMs,
        connectionsCheckingInterval: limits.checkIntervalMs,
      },
      (req, res) => {
        if ((req.socket as TaggedSocket)[OVER_CAP]) {
          res.writeHead(429, {
            'content-type': 'application/json; charset=utf-8',
            'content-length': TOO_MANY_BODY.length,
            'retry-after': RETRY_AFTER_S,
            'cache-control': 'no-store',
            connection: 'close',
          });
          res.end(TOO_MANY_BODY);
          return;
        }
        armBodyDeadline(req, limits.bodyTimeoutMs);
        handler(req, res);
      },
    );
    server.setTimeout(limits.idleTimeoutMs);

    const open = new Map<string, number>();
    server.on('connection', (socket: TaggedSocket) => {
      const address = socket.remoteAddress;
      if (!address || opts.trusted(address)) return;
      const key = networkKey(address, opts.ipv6Prefix);
      const count = (open.get(key) ?? 0) + 1;
      open.set(key, count);
      socket.once('close', () => {
        const left = (open.get(key) ?? 1) - 1;
        if (left > 0) open.set(key, left);
        else open.delete(key);
      });
      if (count > limits.connectionsPerAddress * 2) socket.destroy();
      else if (count > limits.connectionsPerAddress) socket[OVER_CAP] = true;
    });
    return server;
  };
}
