/** Where a browser should PUT a file, with the headers the URL was signed for. */
export interface UploadTarget {
  url: string;
  expiresAt: Date;
}

export interface UploadConstraints {
  /** Bound into the URL when known: a PUT with another type is refused. */
  contentType?: string;
  /** Exact size bound into the URL when known. */
  size?: number;
  /** Upper bound on the size (enforced on PUT locally; checked at normalisation on S3). */
  maxBytes: number;
  expiresInMs: number;
}

/**
 * Object storage for product images (docs/product.md §11): local disk by default, S3-compatible when
 * S3_BUCKET is set. Keys are relative paths like `products/ab12.webp`; raw browser uploads live
 * under `incoming/` until normalisation replaces them with WebP variants.
 */
export interface ObjectStore {
  readonly kind: 'local' | 's3';
  put(key: string, body: Buffer, opts: { contentType: string; cacheControl?: string }): Promise<void>;
  /** The object's bytes, or null when it does not exist. */
  get(key: string): Promise<Buffer | null>;
  /** The object's size in bytes, or null when it does not exist. */
  size(key: string): Promise<number | null>;
  delete(key: string): Promise<void>;
  /** A single-use URL the browser PUTs the raw file to. */
  createUploadTarget(key: string, constraints: UploadConstraints): Promise<UploadTarget>;
  /** The key of an upload target this store issued (the URL handed to the browser), else null. */
  keyFromUploadUrl(url: string): string | null;
  /** Public URL (or site path) the storefront uses for a stored object. */
  publicUrl(key: string): string;
  /** True when the URL/path points into this store's public space (product images must). */
  isOwnPublicUrl(url: string): boolean;
}

const KEY_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_-]*(\/[A-Za-z0-9][A-Za-z0-9_.-]*)*$/;

/** Keys come from us, but a stray `..` or absolute path must never reach the disk or the bucket. */
export function assertSafeKey(key: string): void {
  if (!KEY_PATTERN.test(key) || key.includes('..') || key.length > 300)
    throw new Error(`Unsafe object key: ${key}`);
}

export const INCOMING_PREFIX = 'incoming/';
