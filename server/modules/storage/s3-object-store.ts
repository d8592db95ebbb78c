import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import {
  assertSafeKey,
  INCOMING_PREFIX,
  type ObjectStore,
  type UploadConstraints,
  type UploadTarget,
} from './object-store';

export interface S3ObjectStoreOptions {
  bucket: string;
  region: string;
  /** S3-compatible endpoint (MinIO, R2, s3rver); path-style addressing is used with it. */
  endpoint?: string;
  accessKeyId?: string;
  secretAccessKey?: string;
  /** Where objects are publicly readable; defaults to the bucket's URL on the endpoint. */
  publicUrl?: string;
}

function isMissing(err: unknown): boolean {
  if (err instanceof S3ServiceException) {
    return err.name === 'NoSuchKey' || err.name === 'NotFound' || err.$metadata.httpStatusCode === 404;
  }
  return false;
}

/** S3-compatible storage: the browser PUTs straight to the bucket through a presigned URL. */
export class S3ObjectStore implements ObjectStore {
  readonly kind = 's3' as const;
  readonly client: S3Client;
  private readonly bucketBase: URL;
  private readonly publicBase: string;

  constructor(private readonly opts: S3ObjectStoreOptions) {
    this.client = new S3Client({
      region: opts.region,
      endpoint: opts.endpoint,
      forcePathStyle: Boolean(opts.endpoint),
      credentials:
        opts.accessKeyId && opts.secretAccessKey
          ? { accessKeyId: opts.accessKeyId, secretAccessKey: opts.secretAccessKey }
          : undefined,
      // Checksums on presigned PUTs would oblige the browser to send them too.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
    const endpoint = opts.endpoint?.replace(/\/+$/, '');
    this.bucketBase = new URL(
      endpoint ? `${endpoint}/${opts.bucket}/` : `https://${opts.bucket}.s3.${opts.region}.amazonaws.com/`,
    );
    this.publicBase = (opts.publicUrl ?? this.bucketBase.toString()).replace(/\/+$/, '');
  }

  async put(key: string, body: Buffer, opts: { contentType: string; cacheControl?: string }): Promise<void> {
    assertSafeKey(key);
    await this.client.send(
      new PutObjectCommand({
        Bucket: this.opts.bucket,
        Key: key,
        Body: body,
        ContentType: opts.contentType,
        CacheControl: opts.cacheControl,
      }),
    );
  }

  async get(key: string): Promise<Buffer | null> {
    assertSafeKey(key);
    try {
      const res = await this.client.send(new GetObjectCommand({ Bucket: this.opts.bucket, Key: key }));
      if (!res.Body) return null;
      return Buffer.from(await res.Body.transformToByteArray());
    } catch (err) {
      if (isMissing(err)) return null;
      throw err;
    }
  }

  async size(key: string): Promise<number | null> {
    assertSafeKey(key);
    try {
      const res = await this.client.send(new HeadObjectCommand({ Bucket: this.opts.bucket, Key: key }));
      return res.ContentLength ?? null;
    } catch (err) {
      if (isMissing(err)) return null;
      throw err;
    }
  }

  async delete(key: string): Promise<void> {
    assertSafeKey(key);
    await this.client.send(new DeleteObjectCommand({ Bucket: this.opts.bucket, Key: key }));
  }

  async createUploadTarget(key: string, c: UploadConstraints): Promise<UploadTarget> {
    assertSafeKey(key);
    const expiresIn = Math.floor(c.expiresInMs / 1000);
    const signed = new Set<string>();
    if (c.contentType) signed.add('content-type');
    if (c.size !== undefined) signed.add('content-length');
    // A presigned PUT cannot express "at most N bytes": an exact size is signed when known, and the
    // size is checked again (and the object deleted) at normalisation.
    const url = await getSignedUrl(
      this.client,
      new PutObjectCommand({
        Bucket: this.opts.bucket,
        Key: key,
        ContentType: c.contentType,
        ContentLength: c.size,
      }),
      { expiresIn, signableHeaders: signed },
    );
    return { url, expiresAt: new Date(Date.now() + expiresIn * 1000) };
  }

  keyFromUploadUrl(url: string): string | null {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      return null;
    }
    if (parsed.origin !== this.bucketBase.origin || !parsed.pathname.startsWith(this.bucketBase.pathname))
      return null;
    const key = decodeURIComponent(parsed.pathname.slice(this.bucketBase.pathname.length));
    if (!key.startsWith(INCOMING_PREFIX)) return null;
    try {
      assertSafeKey(key);
      return key;
    } catch {
      return null;
    }
  }

  publicUrl(key: string): string {
    assertSafeKey(key);
    return `${this.publicBase}/${key}`;
  }

  isOwnPublicUrl(url: string): boolean {
    if (!url.startsWith(`${this.publicBase}/`)) return false;
    try {
      assertSafeKey(url.slice(this.publicBase.length + 1));
      return true;
    } catch {
      return false;
    }
  }
}
