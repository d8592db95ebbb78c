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

  /** `oneOff`: compressed for a single response, so fast settings instead of the smallest output. */
  constructor(
    readonly text: string,
    private readonly opts: { oneOff?: boolean } = {},
  ) {
    this.identity = Buffer.from(text);
  }

  /** Bodies this small gain nothing from compression. */
  get compressible(): boolean {
    return this.identity.length >= 1024;
  }

  bytes(encoding: Encoding): Buffer | Promise<Buffer> {
    if (encoding === 'identity') return this.identity;
    let pending = this.encoded.get(encoding);
    if (!pending) {
      const size = this.identity.length;
      pending =
        encoding === 'br'
          ? brotli(this.identity, {
              params: {
                [zlib.constants.BROTLI_PARAM_QUALITY]: this.opts.oneOff ? 4 : 11,
                [zlib.constants.BROTLI_PARAM_SIZE_HINT]: size,
              },
            })
          : gzip(this.identity, { level: this.opts.oneOff ? 6 : 9 });
      this.encoded.set(encoding, pending);
    }
    return pending;
  }
}

/** Keeps one PrecompressedBody for the latest text: a new one only when the text changes. */
export function createBodyCache(): (text: string) => PrecompressedBody {
  let last: PrecompressedBody | null = null;
  return (text) => {
    if (last?.text !== text) last = new PrecompressedBody(text);
    return last;
  };
}

/** Sends a JSON body in the best encoding the client accepts. Register the route with `compress: false`. */
export function sendPrecompressedJson(
  request: FastifyRequest,
  reply: FastifyReply,
  body: PrecompressedBody,
): Buffer | Promise<Buffer> {
  const encoding = body.compressible ? negotiateEncoding(request.headers['accept-encoding']) : 'identity';
  reply.type('application/json; charset=utf-8').header('vary', 'accept-encoding');
  if (encoding !== 'identity') reply.header('content-encoding', encoding);
  return body.bytes(encoding);
}
