import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { DEFAULT_IPV6_PREFIX, networkKey } from './network-address';

/**
 * Server-Sent Events for every stream the shop serves (the waiting room, live stock): ONE hub per
 * instance (server/services.ts) that counts slots, caps them per instance and per network address (one
 * set of caps for every kind of stream), sends the heartbeat and ends them all on shutdown
 * (docs/security.md, "Streams"). Each kind of stream is a `channel` of the hub: its own topics (a
 * product's id, kept apart from the other channels'), its own meta and refusal wording, the same slots.
 *
 * A slot is taken synchronously, before the route awaits anything, and given back by the response's
 * `close` event, which is attached in the same synchronous step: a client that leaves at any moment
 * (before the first byte, during the first read, after years) frees its slot. A client already gone
 * when the slot is asked for gets none. Taking a slot tells the response's watcher (`watchStreamSlot`):
 * the rate limits count the open then, once, and give its place in flight back.
 *
 * Cheap per stream, for 10,000 on one instance (bench/attack/ten-thousand-waiting.scenario.ts):
 * - the body is not chunked (`Connection: close`, the body ends with the connection, as SSE allows):
 *   each frame is one socket write, without chunk framing or a corked write per frame;
 * - every frame is a whole state (a drop's status, a product's stock), so a newer frame supersedes one
 *   not yet sent: a client that reads slower than frames come (its socket buffer full) keeps at most one
 *   frame waiting here, sent when its socket drains, instead of a queue of stale ones; heartbeats are
 *   skipped for it meanwhile.
 */

export const HEARTBEAT_MS = 15_000;

const slotWatchers = new WeakMap<ServerResponse, () => void>();

/**
 * Lets code that runs before any stream route (the rate limits) hear when this response takes a stream
 * slot: from then on the hub's caps hold the stream, however long it lives, and the route may hijack the
 * reply (so no onSend or onResponse hook will see it). One watcher per response.
 */
export function watchStreamSlot(res: ServerResponse, watcher: () => void): void {
  slotWatchers.set(res, watcher);
}

/** A stream whose client reads nothing: past this many unsent bytes it is ended (memory stays bounded). */
const MAX_BUFFERED_BYTES = 64 * 1024;

export interface StreamRefusal {
  refused: true;
  /** 503: this instance serves its maximum; 429: this network address holds its maximum. */
  status: 429 | 503;
  retryAfterSeconds: number;
  message: string;
}

export interface StreamSlot<M> {
  refused: false;
  /**
   * Sends the headers and the first frame and joins `topic`. Null (and nothing sent) when the client
   * has left meanwhile or the hub was closed: the slot is already free then.
   */
  start(topic: string, meta: M, first: string, headers?: OutgoingHttpHeaders): OpenStream<M> | null;
  /** Gives the slot back without starting (the route answered with an error instead). */
  release(): void;
}

export interface OpenStream<M> {
  readonly topic: string;
  readonly meta: M;
  /** What the owner last sent on this stream (to skip repeats); null before anything was recorded. */
  last: string | null;
  /** Sends a frame (a whole state): while the client's socket is full, it replaces any frame still waiting. */
  send(frame: string): void;
}

/** What a refused stream is told, and when to try again; per channel (the caps are the hub's). */
export interface StreamRefusalCopy {
  messages: { full: string; perAddress: string };
  retryAfterSeconds?: { full: number; perAddress: number };
}

export interface EventStreamHubOptions extends Partial<StreamRefusalCopy> {
  /** Streams this instance serves at most, every channel together (beyond: 503). */
  maxStreams: number;
  /** Streams one network address holds at most, every channel together (beyond: 429). */
  perAddress: number;
  /** IPv6 addresses count by this prefix (IPV6_PREFIX); IPv4 as is. */
  ipv6Prefix?: number;
  heartbeatMs?: number;
  /** The client's reconnection delay (SSE `retry:`), ms. */
  retryMs?: number;
}

export interface StreamChannelOptions extends StreamRefusalCopy {
  /** The client's reconnection delay (SSE `retry:`), ms, sent before the first frame. */
  retryMs?: number;
}

/**
 * One kind of stream on the shared hub (the waiting room's, live stock's): topics are this channel's
 * own, slots and caps are the hub's.
 */
export interface StreamChannel<M> {
  /** Takes a slot (synchronously, before the route awaits anything), or says what to refuse with. */
  reserve(req: IncomingMessage, res: ServerResponse, ip: string): StreamSlot<M> | StreamRefusal;
  /** Someone is listening on `topic` of this channel on this instance. */
  has(topic: string): boolean;
  /** This channel's topics with a listener. */
  topics(): string[];
  /** The open streams of a topic (a copy: sending may end one). */
  streamsOf(topic: string): Array<OpenStream<M>>;
  /** Sends one frame to every stream of a topic. */
  broadcast(topic: string, frame: string): void;
  /** This channel's slots in use, started or not. */
  readonly size: number;
}

/** One open stream; a class, so 10,000 streams share their methods (no closures per stream). */
class Entry<M> implements OpenStream<M> {
  released = false;
  last: string | null = null;
  /** The newest frame not written yet (the socket was full); written on `drain`. */
  private waiting: string | null = null;
  constructor(
    readonly topic: string,
    readonly meta: M,
    readonly res: ServerResponse,
  ) {}

  send(frame: string): void {
    if (this.released) return;
    const res = this.res;
    if (res.writableNeedDrain) {
      if (res.writableLength > MAX_BUFFERED_BYTES) {
        res.destroy();
        return;
      }
      // A listener only while the socket is full (rare), not one per stream.
      if (this.waiting === null) res.once('drain', () => this.flush());
      this.waiting = frame;
      return;
    }
    res.write(frame);
  }

  /** A comment line that keeps proxies from timing the stream out; not for a socket that is full. */
  beat(): void {
    if (!this.released && this.waiting === null && !this.res.writableNeedDrain) this.res.write(HEARTBEAT_FRAME);
  }

  private flush(): void {
    const frame = this.waiting;
    this.waiting = null;
    if (frame !== null) this.send(frame);
  }
}

const HEARTBEAT_FRAME = ': heartbeat\n\n';

export const PER_ADDRESS_MESSAGE = 'Too many open streams from your network. Close a tab or try again shortly.';

const DEFAULT_COPY: StreamRefusalCopy = {
  messages: { full: 'Too many open streams on this server; try again shortly.', perAddress: PER_ADDRESS_MESSAGE },
  retryAfterSeconds: { full: 5, perAddress: 30 },
};

/** A channel's topic inside the hub: `<channel>\u0000<topic>`, so two channels never share a topic. */
const SEPARATOR = '\u0000';

export function createEventStreamHub<M = undefined>(opts: EventStreamHubOptions) {
  const ipv6Prefix = opts.ipv6Prefix ?? DEFAULT_IPV6_PREFIX;
  const hubCopy: StreamRefusalCopy = {
    messages: opts.messages ?? DEFAULT_COPY.messages,
    retryAfterSeconds: opts.retryAfterSeconds ?? DEFAULT_COPY.retryAfterSeconds,
  };
  /** Slots taken (started or still awaiting their first read). */
  let used = 0;
  /** Slots taken per channel (the hub's own reserve counts as channel ''). */
  const perChannel = new Map<string, number>();
  const perAddress = new Map<string, number>();
  const topics = new Map<string, Set<Entry<M>>>();
  /** Slots taken but not started: ended on close like the rest. */
  const pending = new Set<ServerResponse>();
  let heartbeat: NodeJS.Timeout | null = null;
  let closed = false;

  const refusal = (status: 429 | 503, copy: StreamRefusalCopy): StreamRefusal => {
    const retryAfter = copy.retryAfterSeconds ?? DEFAULT_COPY.retryAfterSeconds!;
    return {
      refused: true,
      status,
      retryAfterSeconds: status === 503 ? retryAfter.full : retryAfter.perAddress,
      message: status === 503 ? copy.messages.full : copy.messages.perAddress,
    };
  };

  // A client that sent its FIN has had our half ended too (the socket is no longer writable).
  const gone = (req: IncomingMessage, res: ServerResponse) =>
    res.destroyed || res.writableEnded || !req.socket || req.socket.destroyed === true || req.socket.writable === false;

  function startHeartbeat(): void {
    if (heartbeat) return;
    heartbeat = setInterval(() => {
      for (const set of topics.values()) for (const s of set) s.beat();
    }, opts.heartbeatMs ?? HEARTBEAT_MS);
    heartbeat.unref();
  }

  function stopHeartbeat(): void {
    if (heartbeat) clearInterval(heartbeat);
    heartbeat = null;
  }

  /**
   * Takes a slot for the request, synchronously (call it before any await in the route). A refusal
   * says what to answer: status, Retry-After and the message. `channel` prefixes the topic `start` joins.
   */
  function reserveIn(
    channel: string,
    copy: StreamRefusalCopy,
    retryMs: number | undefined,
    req: IncomingMessage,
    res: ServerResponse,
    ip: string,
  ): StreamSlot<M> | StreamRefusal {
    if (closed || used >= opts.maxStreams) return refusal(503, copy);
    const address = networkKey(ip, ipv6Prefix);
    const held = perAddress.get(address) ?? 0;
    if (held >= opts.perAddress) return refusal(429, copy);
    if (gone(req, res)) return refusal(503, copy);
    used++;
    perChannel.set(channel, (perChannel.get(channel) ?? 0) + 1);
    perAddress.set(address, held + 1);
    pending.add(res);
    let entry: Entry<M> | null = null;
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      pending.delete(res);
      used--;
      perChannel.set(channel, (perChannel.get(channel) ?? 1) - 1);
      const n = (perAddress.get(address) ?? 1) - 1;
      if (n <= 0) perAddress.delete(address);
      else perAddress.set(address, n);
      if (entry) {
        entry.released = true;
        const set = topics.get(entry.topic);
        set?.delete(entry);
        if (set && set.size === 0) topics.delete(entry.topic);
      }
      if (used === 0) stopHeartbeat();
    };
    res.once('close', release);
    slotWatchers.get(res)?.();
    return {
      refused: false,
      release,
      start(channelTopic, meta, first, headers = {}) {
        const topic = channel ? `${channel}${SEPARATOR}${channelTopic}` : channelTopic;
        if (released) return null;
        if (closed || gone(req, res)) {
          release();
          if (!res.destroyed) res.destroy();
          return null;
        }
        pending.delete(res);
        // Not chunked: the body runs until the connection closes (Node then answers `Connection: close`).
        res.useChunkedEncodingByDefault = false;
        res.writeHead(200, {
          ...headers,
          'content-type': 'text/event-stream; charset=utf-8',
          // Never cached, compressed or buffered by a proxy: each event must arrive when written.
          'cache-control': 'no-store, no-transform',
          'x-accel-buffering': 'no',
        });
        const e = new Entry<M>(topic, meta, res);
        entry = e;
        let set = topics.get(topic);
        if (!set) topics.set(topic, (set = new Set()));
        set.add(e);
        e.send(retryMs ? `retry: ${retryMs}\n\n${first}` : first);
        e.last = first;
        startHeartbeat();
        return e;
      },
    };
  }

  return {
    /** A slot on the hub itself (no channel): topics as given, the hub's refusal wording. */
    reserve(req: IncomingMessage, res: ServerResponse, ip: string): StreamSlot<M> | StreamRefusal {
      return reserveIn('', hubCopy, opts.retryMs, req, res, ip);
    },

    /**
     * One kind of stream on this hub: topics of its own (`name` keeps them apart), meta of its own type,
     * its own refusal wording; the slots and the caps are the hub's.
     */
    channel<C>(name: string, copy: StreamChannelOptions): StreamChannel<C> {
      if (!name || name.includes(SEPARATOR)) throw new Error(`bad stream channel name: ${JSON.stringify(name)}`);
      const key = (topic: string) => `${name}${SEPARATOR}${topic}`;
      const prefix = key('');
      const entries = (topic: string) => topics.get(key(topic)) as Set<Entry<C>> | undefined;
      return {
        reserve: (req, res, ip) => reserveIn(name, copy, copy.retryMs, req, res, ip) as unknown as StreamSlot<C> | StreamRefusal,
        has: (topic) => topics.has(key(topic)),
        topics: () => [...topics.keys()].filter((k) => k.startsWith(prefix)).map((k) => k.slice(prefix.length)),
        streamsOf: (topic) => [...(entries(topic) ?? [])],
        broadcast(topic, frame) {
          const set = entries(topic);
          if (set) for (const s of [...set]) s.send(frame);
        },
        get size() {
          return perChannel.get(name) ?? 0;
        },
      };
    },

    /** Someone is listening on `topic` on this instance. */
    has(topic: string): boolean {
      return topics.has(topic);
    },
    topics(): string[] {
      return [...topics.keys()];
    },
    /** The open streams of a topic (a copy: sending may end one). */
    streamsOf(topic: string): Array<OpenStream<M>> {
      const set = topics.get(topic);
      return set ? [...set] : [];
    },
    /** Sends one frame to every stream of a topic. */
    broadcast(topic: string, frame: string): void {
      const set = topics.get(topic);
      if (set) for (const s of [...set]) s.send(frame);
    },
    /** Slots in use, started or not. */
    get size(): number {
      return used;
    },
    /** Slots one network address holds. */
    heldBy(ip: string): number {
      return perAddress.get(networkKey(ip, ipv6Prefix)) ?? 0;
    },
    get maxStreams(): number {
      return opts.maxStreams;
    },
    /** App shutdown: every stream is ended (the server must not wait for them) and no new one starts. */
    closeAll(): void {
      closed = true;
      stopHeartbeat();
      for (const set of [...topics.values()]) for (const s of [...set]) (s as Entry<M>).res.end();
      for (const res of [...pending]) res.destroy();
    },
  };
}

export type EventStreamHub<M = undefined> = ReturnType<typeof createEventStreamHub<M>>;

/** The JSON answer of a refused stream (the route sends it: 503/429, Retry-After, no-store). */
export function refusalHeaders(refusal: StreamRefusal): Record<string, string> {
  return { 'retry-after': String(refusal.retryAfterSeconds), 'cache-control': 'no-store' };
}

/** Streams one instance serves when STREAMS_PER_INSTANCE is not set (bench/attack/ten-thousand-waiting.scenario.ts). */
export const DEFAULT_STREAMS_PER_INSTANCE = 10_000;
