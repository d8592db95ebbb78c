import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { HttpError } from '../../lib/http-error';
import {
  assertSafeKey,
  INCOMING_PREFIX,
  type ObjectStore,
  type UploadConstraints,
  type UploadTarget,
} from './object-store';

/** Route the browser PUTs local uploads to (registered by images.routes.ts). */
export const LOCAL_UPLOAD_PATH = '/api/admin/images/upload/';

/** Claims of an upload token (kept short: Fastify caps a path parameter at 100 characters). */
interface UploadToken {
  /** Object key the upload is stored under (always in incoming/). */
  key: string;
  /** Expiry, ms since epoch. */
  expires: number;
  /** Largest accepted body in bytes. */
  maxBytes: number;
  /** Bound content type, if any. */
  contentType?: string;
  /** Bound exact size, if any. */
  size?: number;
}

const BOUND_TYPES = ['image/jpeg', 'image/png', 'image/webp', 'image/avif', 'application/octet-stream'];

/** `<id>.<expires>.<maxBytes>.<type index>.<size>` in base 36; the signature is appended after another dot. */
function encodeClaims(c: UploadToken): string {
  const id = c.key.slice(INCOMING_PREFIX.length);
  const type = c.contentType ? String(BOUND_TYPES.indexOf(c.contentType)) : '';
  return [id, c.expires.toString(36), c.maxBytes.toString(36), type, c.size?.toString(36) ?? ''].join('.');
}

function decodeClaims(text: string): UploadToken | null {
  const parts = text.split('.');
  if (parts.length !== 5) return null;
  const [id, expires, maxBytes, type, size] = parts;
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(id)) return null;
  const claims: UploadToken = {
    key: `${INCOMING_PREFIX}${id}`,
    expires: parseInt(expires, 36),
    maxBytes: parseInt(maxBytes, 36),
  };
  if (type) claims.contentType = BOUND_TYPES[Number(type)];
  if (size) claims.size = parseInt(size, 36);
  if (!Number.isFinite(claims.expires) || !Number.isFinite(claims.maxBytes)) return null;
  return claims;
}

export interface LocalObjectStoreOptions {
  /** Public files, served at /uploads (DATA_DIR/uploads). */
  uploadsDir: string;
  /** Raw uploads waiting for normalisation: never served. */
  incomingDir: string;
  /** One marker per consumed upload token (single use that survives restarts). */
  tokensDir: string;
  /** Signs upload tokens (a key derived from the session secret for this purpose only). */
  key: Buffer;
}

/** Local disk: DATA_DIR/uploads is public at /uploads; uploads arrive through our own PUT route. */
export class LocalObjectStore implements ObjectStore {
  readonly kind = 'local' as const;
  private readonly key: Buffer;

  constructor(private readonly opts: LocalObjectStoreOptions) {
    this.key = opts.key;
  }

  private pathFor(key: string): string {
    assertSafeKey(key);
    return key.startsWith(INCOMING_PREFIX)
      ? path.join(this.opts.incomingDir, key.slice(INCOMING_PREFIX.length))
      : path.join(this.opts.uploadsDir, key);
  }

  async put(key: string, body: Buffer): Promise<void> {
    const file = this.pathFor(key);
    await fs.mkdir(path.dirname(file), { recursive: true });
    // Write then rename: a reader never sees half a file.
    const temp = `${file}.${crypto.randomBytes(6).toString('hex')}.tmp`;
    await fs.writeFile(temp, body);
    await fs.rename(temp, file);
  }

  async get(key: string): Promise<Buffer | null> {
    try {
      return await fs.readFile(this.pathFor(key));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
  }

  async size(key: string): Promise<number | null> {
    try {
      return (await fs.stat(this.pathFor(key))).size;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
  }

  async delete(key: string): Promise<void> {
    await fs.rm(this.pathFor(key), { force: true });
  }

  /** HMAC-SHA256 truncated to 128 bits: plenty for a 15-minute token, and short enough for a path. */
  private sign(payload: string): string {
    return crypto
      .createHmac('sha256', this.key)
      .update(payload)
      .digest()
      .subarray(0, 16)
      .toString('base64url');
  }

  async createUploadTarget(key: string, c: UploadConstraints): Promise<UploadTarget> {
    assertSafeKey(key);
    if (!/^incoming\/[A-Za-z0-9_-]{1,64}$/.test(key))
      throw new Error(`Uploads go to incoming/<id>, not ${key}`);
    if (c.contentType && !BOUND_TYPES.includes(c.contentType))
      throw new Error(`Cannot bind content type ${c.contentType}`);
    const expiresAt = new Date(Date.now() + c.expiresInMs);
    const claims = encodeClaims({
      key,
      expires: expiresAt.getTime(),
      maxBytes: c.maxBytes,
      contentType: c.contentType,
      size: c.size,
    });
    return { url: `${LOCAL_UPLOAD_PATH}${claims}.${this.sign(claims)}`, expiresAt };
  }

  /** The token's claims when its signature is ours (expiry is checked by the caller). */
  private readToken(token: string): UploadToken | null {
    const cut = token.lastIndexOf('.');
    if (cut < 0) return null;
    const claims = token.slice(0, cut);
    const expected = Buffer.from(this.sign(claims));
    const given = Buffer.from(token.slice(cut + 1));
    if (expected.length !== given.length || !crypto.timingSafeEqual(expected, given)) return null;
    return decodeClaims(claims);
  }

  keyFromUploadUrl(url: string): string | null {
    let pathname: string;
    try {
      pathname = new URL(url, 'http://local').pathname;
    } catch {
      return null;
    }
    if (!pathname.startsWith(LOCAL_UPLOAD_PATH)) return null;
    return this.readToken(pathname.slice(LOCAL_UPLOAD_PATH.length))?.key ?? null;
  }

  /**
   * Stores the body of a PUT to an upload URL. The token must be ours, unexpired and unused; the
   * body must fit its limits. Each token works once (a marker file records its use).
   */
  async acceptUpload(token: string, upload: { contentType: string; body: Buffer }): Promise<string> {
    const claims = this.readToken(token);
    if (!claims) throw new HttpError(403, 'Upload link is not valid');
    if (claims.expires <= Date.now()) throw new HttpError(403, 'Upload link has expired; request a new one');
    if (upload.body.length === 0) throw new HttpError(400, 'The uploaded file is empty');
    if (upload.body.length > claims.maxBytes) throw new HttpError(413, 'Images can be at most 10 MB');
    if (claims.size !== undefined && upload.body.length !== claims.size) {
      throw new HttpError(400, 'The uploaded file does not have the size the upload link was made for');
    }
    if (claims.contentType && upload.contentType !== claims.contentType) {
      throw new HttpError(400, 'The uploaded file does not have the type the upload link was made for');
    }
    await fs.mkdir(this.opts.tokensDir, { recursive: true });
    const marker = path.join(this.opts.tokensDir, crypto.createHash('sha256').update(token).digest('hex'));
    try {
      await fs.writeFile(marker, String(claims.expires), { flag: 'wx' });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'EEXIST')
        throw new HttpError(409, 'Upload link has already been used');
      throw err;
    }
    await this.put(claims.key, upload.body);
    return claims.key;
  }

  /**
   * Housekeeping (run from a job): drops markers of tokens that have expired anyway and raw uploads
   * nobody normalised within a day.
   */
  async prune(now = Date.now()): Promise<number> {
    let removed = 0;
    for (const name of await fs.readdir(this.opts.tokensDir).catch(() => [] as string[])) {
      const file = path.join(this.opts.tokensDir, name);
      const expiry = Number(await fs.readFile(file, 'utf8').catch(() => '0'));
      if (expiry < now) {
        await fs.rm(file, { force: true });
        removed++;
      }
    }
    for (const name of await fs.readdir(this.opts.incomingDir).catch(() => [] as string[])) {
      const file = path.join(this.opts.incomingDir, name);
      const stat = await fs.stat(file).catch(() => null);
      if (stat && now - stat.mtimeMs > 24 * 60 * 60 * 1000) {
        await fs.rm(file, { force: true, recursive: true });
        removed++;
      }
    }
    return removed;
  }

  publicUrl(key: string): string {
    assertSafeKey(key);
    return `/uploads/${key}`;
  }

  isOwnPublicUrl(url: string): boolean {
    if (!url.startsWith('/uploads/')) return false;
    try {
      assertSafeKey(url.slice('/uploads/'.length));
      return true;
    } catch {
      return false;
    }
  }
}
