import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import {
  MAX_UPLOAD_BYTES,
  normalizeImageResultSchema,
  uploadUrlResultSchema,
} from '../../../common/contracts/admin';
import { buildTestApp, type TestApp } from '../../../tests/support/build-test-app';
import { adminClient } from '../../../tests/support/admin-session';
import { startTestS3, type TestS3 } from '../../../tests/support/s3-server';
import { S3ObjectStore } from './s3-object-store';

const png = (w = 40, h = 20) =>
  sharp({ create: { width: w, height: h, channels: 3, background: '#236' } })
    .png()
    .toBuffer();
const json = <T = { message: string }>(res: { body: string }) => JSON.parse(res.body) as T;

let s3: TestS3;
let store: S3ObjectStore;

beforeAll(async () => {
  s3 = await startTestS3();
  store = new S3ObjectStore({
    bucket: s3.bucket,
    region: 'us-east-1',
    endpoint: s3.endpoint,
    accessKeyId: s3.accessKeyId,
    secretAccessKey: s3.secretAccessKey,
  });
});
afterAll(async () => {
  store?.client.destroy();
  await s3?.stop();
});

describe('S3 object store against s3rver', () => {
  test('put, size, get and delete', async () => {
    const body = Buffer.from('hello object store');
    await store.put('products/hello.txt', body, {
      contentType: 'text/plain',
      cacheControl: 'public, max-age=60',
    });
    expect(await store.size('products/hello.txt')).toBe(body.length);
    expect((await store.get('products/hello.txt'))?.toString()).toBe('hello object store');
    await store.delete('products/hello.txt');
    expect(await store.get('products/hello.txt')).toBeNull();
    expect(await store.size('products/hello.txt')).toBeNull();
    // Deleting what is not there is fine.
    await store.delete('products/hello.txt');
  });

  test('refuses unsafe keys before they reach the bucket', async () => {
    await expect(store.put('../escape', Buffer.from('x'), { contentType: 'text/plain' })).rejects.toThrow(
      /Unsafe object key/,
    );
    await expect(store.get('/absolute')).rejects.toThrow(/Unsafe object key/);
  });

  test("a presigned PUT stores the browser's file; the public URL serves it", async () => {
    const target = await store.createUploadTarget('incoming/abc123', {
      maxBytes: MAX_UPLOAD_BYTES,
      expiresInMs: 15 * 60 * 1000,
    });
    expect(target.url.startsWith(`${s3.endpoint}/${s3.bucket}/incoming/abc123?`)).toBe(true);
    expect(new URL(target.url).searchParams.get('X-Amz-Expires')).toBe('900');
    const file = await png();
    const res = await fetch(target.url, {
      method: 'PUT',
      body: file,
      headers: { 'content-type': 'image/png' },
    });
    expect(res.status, await res.text()).toBe(200);
    expect(await store.get('incoming/abc123')).toEqual(file);
    expect(store.keyFromUploadUrl(target.url)).toBe('incoming/abc123');

    await store.put('products/p.webp', file, { contentType: 'image/webp' });
    const url = store.publicUrl('products/p.webp');
    expect(url).toBe(`${s3.endpoint}/${s3.bucket}/products/p.webp`);
    expect(store.isOwnPublicUrl(url)).toBe(true);
    expect(store.isOwnPublicUrl('https://elsewhere.example.com/products/p.webp')).toBe(false);
    expect(store.isOwnPublicUrl(`${s3.endpoint}/${s3.bucket}/../other/x.webp`)).toBe(false);
    const served = await fetch(url);
    expect(served.status).toBe(200);
    expect(Buffer.from(await served.arrayBuffer())).toEqual(file);
  });

  test("content type and size, when known, are bound into the presigned PUT's signature", async () => {
    const file = await png();
    const bound = await store.createUploadTarget('incoming/bound1', {
      contentType: 'image/png',
      size: file.length,
      maxBytes: MAX_UPLOAD_BYTES,
      expiresInMs: 60_000,
    });
    // S3 refuses a PUT whose signed headers differ. s3rver does not check v4 signatures, so the
    // binding is asserted on the URL; the size and type are checked again at normalisation anyway.
    expect(new URL(bound.url).searchParams.get('X-Amz-SignedHeaders')).toBe(
      'content-length;content-type;host',
    );
    const right = await fetch(bound.url, {
      method: 'PUT',
      body: file,
      headers: { 'content-type': 'image/png' },
    });
    expect(right.status).toBe(200);

    const open = await store.createUploadTarget('incoming/open1', {
      maxBytes: MAX_UPLOAD_BYTES,
      expiresInMs: 60_000,
    });
    expect(new URL(open.url).searchParams.get('X-Amz-SignedHeaders')).toBe('host');
  });

  test('an expired presigned PUT is refused', async () => {
    // Signed a minute ago for one second, instead of sleeping past the expiry: only Date is faked
    // (the SDK stamps X-Amz-Date from it), and it is real again before s3rver checks the URL.
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() - 60_000 });
    const target = await store
      .createUploadTarget('incoming/late1', { maxBytes: MAX_UPLOAD_BYTES, expiresInMs: 1000 })
      .finally(() => vi.useRealTimers());
    expect(new URL(target.url).searchParams.get('X-Amz-Expires')).toBe('1');
    const res = await fetch(target.url, {
      method: 'PUT',
      body: await png(),
      headers: { 'content-type': 'image/png' },
    });
    expect(res.status).toBe(403);
    expect(await res.text()).toMatch(/<Message>Request has expired<\/Message>/);
    expect(await store.size('incoming/late1')).toBeNull();
  });

  test("only URLs into our bucket's incoming/ area name an upload", () => {
    expect(store.keyFromUploadUrl(`${s3.endpoint}/${s3.bucket}/incoming/x1?X-Amz-Signature=abc`)).toBe(
      'incoming/x1',
    );
    expect(store.keyFromUploadUrl(`${s3.endpoint}/${s3.bucket}/products/x1.webp`)).toBeNull();
    expect(store.keyFromUploadUrl(`${s3.endpoint}/other-bucket/incoming/x1`)).toBeNull();
    expect(store.keyFromUploadUrl('http://evil.example.com/fifty-test/incoming/x1')).toBeNull();
    expect(store.keyFromUploadUrl(`${s3.endpoint}/${s3.bucket}/incoming/..%2F..%2Fsecret`)).toBeNull();
    expect(store.keyFromUploadUrl('not a url')).toBeNull();
  });
});

describe('admin image upload through S3 (presigned PUT)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ deps: { objectStore: store } });
  });
  afterAll(async () => {
    await t?.close();
  });

  test('upload-url → PUT to S3 → normalize stores WebP variants in the bucket and removes the raw file', async () => {
    const admin = await adminClient(t);
    const target = uploadUrlResultSchema.parse(json(await admin.post('/api/admin/images/upload-url', {})));
    expect(target.uploadURL.startsWith(`${s3.endpoint}/${s3.bucket}/incoming/`)).toBe(true);
    const put = await fetch(target.uploadURL, {
      method: 'PUT',
      body: await png(2000, 1000),
      headers: { 'content-type': 'image/png' },
    });
    expect(put.status).toBe(200);

    const res = await admin.post('/api/admin/images/normalize', { imageUrl: target.uploadURL });
    expect(res.statusCode, res.body).toBe(200);
    const { normalizedPath } = normalizeImageResultSchema.parse(json(res));
    expect(normalizedPath).toMatch(new RegExp(`^${s3.endpoint}/${s3.bucket}/products/[0-9a-f]+\\.webp$`));
    const base = normalizedPath.replace(/\.webp$/, '');
    for (const [url, width] of [
      [normalizedPath, 1600],
      [`${base}-800.webp`, 800],
      [`${base}-400.webp`, 400],
    ] as const) {
      const file = await fetch(url);
      expect(file.status, url).toBe(200);
      expect(file.headers.get('content-type')).toBe('image/webp');
      expect(file.headers.get('cache-control')).toMatch(/immutable/);
      expect((await sharp(Buffer.from(await file.arrayBuffer())).metadata()).width).toBe(width);
    }
    expect(await store.size(store.keyFromUploadUrl(target.uploadURL)!)).toBeNull();

    // The bucket's public URL is "our own storage" for product images; other hosts are not.
    const [product] = await t.services.catalog.listProducts();
    const ok = await admin.put(`/api/admin/products/${product.id}`, { ...product, images: [normalizedPath] });
    expect(ok.statusCode, ok.body).toBe(200);
    const foreign = await admin.put(`/api/admin/products/${product.id}`, {
      ...product,
      images: ['https://cdn.example.com/x.webp'],
    });
    expect(foreign.statusCode).toBe(400);
  });

  test('an SVG sent straight to the bucket is refused at normalisation and deleted', async () => {
    const admin = await adminClient(t);
    const target = uploadUrlResultSchema.parse(json(await admin.post('/api/admin/images/upload-url', {})));
    const svg = '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>';
    expect(
      (
        await fetch(target.uploadURL, {
          method: 'PUT',
          body: svg,
          headers: { 'content-type': 'image/svg+xml' },
        })
      ).status,
    ).toBe(200);
    const res = await admin.post('/api/admin/images/normalize', { imageUrl: target.uploadURL });
    expect(res.statusCode).toBe(400);
    expect(json(res).message).toMatch(/JPEG, PNG, WebP or AVIF/);
    expect(await store.size(store.keyFromUploadUrl(target.uploadURL)!)).toBeNull();
  });
});
