import crypto from 'node:crypto';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

export type Encoding = 'br' | 'gzip' | 'identity';

/** Picks br, else gzip, else identity from an Accept-Encoding header, honouring q=0. */
export function negotiateEncoding(header: string | undefined): Encoding {
  if (!header) return 'identity';
  const accepted = new Map<string, number>();
  for (const part of header.split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    if (!name) continue;
    const q = params.map((p) => /^\s*q=(.*)$/.exec(p)?.[1]).find((v) => v !== undefined);
    const weight = q === undefined ? 1 : Number(q.trim() || 'x');
    accepted.set(name, Number.isFinite(weight) ? weight : 0);
  }
  const weight = (name: string) => accepted.get(name) ?? accepted.get('*') ?? 0;
  const br = weight('br');
  const gz = weight('gzip');
  if (br > 0 && br >= gz) return 'br';
  if (gz > 0) return 'gzip';
  return 'identity';
}

/**
 * A response body that does not change per request, compressed once per encoding (off the event
 * loop) instead of on every response by @fastify/compress.
 */
export class PrecompressedBody {
  readonly identity: Buffer;
  private readonly encoded = new Map<Exclude<Encoding, 'identity'>, Promise<Buffer>>();
  /** Finished encodings, so a hit is answered without a promise. */
  private readonly done = new Map<Exclude<Encoding, 'identity'>, Buffer>();
  private tag: string | null = null;

  /**
   * `oneOff`: compressed for a single response, so fast settings instead of the smallest output.
   * `brotliQuality`: for bodies re-made often (pages during a drop) a faster setting than 11.
   * `encoded`: encodings made beforehand (a build's .br and .gz files), sent as they are.
   * `compressed`: the bytes are a compressed format already (a font, an image): always sent as they are.
   */
  constructor(
    readonly text: string | Buffer,
    private readonly opts: {
      oneOff?: boolean;
      brotliQuality?: number;
      encoded?: Partial<Record<Exclude<Encoding, 'identity'>, Buffer>>;
      compressed?: boolean;
    } = {},
  ) {
    this.identity = typeof text === 'string' ? Buffer.from(text) : text;
    for (const [encoding, bytes] of Object.entries(opts.encoded ?? {}))
      if (bytes) this.done.set(encoding as Exclude<Encoding, 'identity'>, bytes);
  }

  /** Bodies this small gain nothing from compression, nor do compressed formats. */
  get compressible(): boolean {
    return !this.opts.compressed && this.identity.length >= 1024;
  }

  /**
   * A weak validator from the content: equal bytes give equal tags on every instance, and weak
   * because the br, gzip and identity representations share it (RFC 9110 §8.8.1).
   */
  get etag(): string {
    this.tag ??= `W/"${crypto.createHash('sha1').update(this.identity).digest('base64url').slice(0, 22)}"`;
    return this.tag;
  }

  /** Total bytes held (identity plus finished encodings), for caches with a size cap. */
  get size(): number {
    let n = this.identity.length;
    for (const b of this.done.values()) n += b.length;
    return n;
  }

  bytes(encoding: Encoding): Buffer | Promise<Buffer> {
    if (encoding === 'identity') return this.identity;
    const ready = this.done.get(encoding);
    if (ready) return ready;
    let pending = this.encoded.get(encoding);
    if (!pending) {
      const size = this.identity.length;
      pending =
        encoding === 'br'
          ? brotli(this.identity, {
              params: {
                [zlib.constants.BROTLI_PARAM_QUALITY]: this.opts.brotliQuality ?? (this.opts.oneOff ? 4 : 11),
                [zlib.constants.BROTLI_PARAM_SIZE_HINT]: size,
              },
            })
          : gzip(this.identity, { level: this.opts.oneOff ? 6 : 9 });
      if (!this.opts.oneOff) void pending.then((b) => this.done.set(encoding, b), () => undefined);
      this.encoded.set(encoding, pending);
    }
    return pending;
  }
}

/** A body replaced sooner than this after the previous one is churning (stock moving during a drop). */
const CHURN_MS = 10_000;

/**
 * Keeps one PrecompressedBody for the latest text: a new one only when the text changes. Brotli 11
 * costs many times the CPU of brotli 5 for a slightly smaller output (bench/README.md, "Figures that
 * were in code comments"): worth it for a body that stays, not for one replaced every moment during a
 * drop, so a body that follows its predecessor quickly gets 5.
 */
export function createBodyCache(): (text: string) => PrecompressedBody {
  let last: PrecompressedBody | null = null;
  let lastAt = 0;
  return (text) => {
    if (last?.text !== text) {
      const now = Date.now();
      last = new PrecompressedBody(text, last && now - lastAt < CHURN_MS ? { brotliQuality: 5 } : {});
      lastAt = now;
    }
    return last;
  };
}

/** True when an If-None-Match header names `etag` (weak comparison, as RFC 9110 §13.1.2 asks). */
export function etagMatches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  const opaque = etag.replace(/^W\//, '');
  return header.split(',').some((t) => t.trim().replace(/^W\//, '') === opaque);
}

/**
 * Sends a fixed body in the best encoding the client accepts, with its ETag; 304 without a body
 * when the client already holds it. Register the route with `compress: false`.
 */
export function sendPrecompressed(
  request: FastifyRequest,
  reply: FastifyReply,
  body: PrecompressedBody,
  contentType: string,
  opts: { validator?: boolean } = {},
): Buffer | Promise<Buffer> | undefined {
  reply.header('vary', 'accept-encoding');
  // Only a successful answer carries a validator (a 404 page is not revalidated: RFC 9110 §13.2.1).
  if (opts.validator !== false) reply.header('etag', body.etag);
  if (opts.validator !== false && etagMatches(request.headers['if-none-match'], body.etag)) {
    // Sent here; `undefined` tells Fastify there is nothing more to send.
    void reply.code(304).send();
    return undefined;
  }
  const encoding = body.compressible ? negotiateEncoding(request.headers['accept-encoding']) : 'identity';
  reply.type(contentType);
  if (encoding !== 'identity') reply.header('content-encoding', encoding);
  return body.bytes(encoding);
}

/** Sends a JSON body in the best encoding the client accepts. Register the route with `compress: false`. */
export function sendPrecompressedJson(
  request: FastifyRequest,
  reply: FastifyReply,
  body: PrecompressedBody,
): Buffer | Promise<Buffer> | undefined {
  return sendPrecompressed(request, reply, body, 'application/json; charset=utf-8');
}
