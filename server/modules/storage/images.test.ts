import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { beforeAll, expect, test } from 'vitest';
import {
  MAX_UPLOAD_BYTES,
  normalizeImageResultSchema,
  uploadUrlResultSchema,
} from '../../../common/contracts/admin';
import { describeEachDb, type TestClient } from '../../../tests/support/build-test-app';
import { adminClient } from '../../../tests/support/admin-session';

const json = <T = { message: string }>(res: { body: string }) => JSON.parse(res.body) as T;

const image = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: { r: 200, g: 40, b: 40 } } });

describeEachDb('admin image uploads (local object store)', (t) => {
  let admin: TestClient;
  beforeAll(async () => {
    admin = await adminClient(t());
  });

  async function uploadUrl(body?: object) {
    const res = body
      ? await admin.post('/api/admin/images/upload-url', body)
      : await admin.request({ method: 'POST', url: '/api/admin/images/upload-url' });
    expect(res.statusCode, res.body).toBe(200);
    return uploadUrlResultSchema.parse(json(res));
  }
  const put = (url: string, body: Buffer, contentType: string) =>
    admin.request({ method: 'PUT', url, payload: body, headers: { 'content-type': contentType } });
  const normalize = (imageUrl: string) => admin.post('/api/admin/images/normalize', { imageUrl });
  const incomingFiles = () =>
    fs
      .readdirSync(path.join(t().dataDir, 'upload-incoming'), { withFileTypes: true })
      .filter((e) => e.isFile());
  /** The three WebP files normalize wrote to disk for `normalizedPath`, read back: format and size. */
  const writtenVariants = async (normalizedPath: string) => {
    const base = path.join(t().dataDir, 'uploads', normalizedPath.replace(/^\/uploads\//, '').replace(/\.webp$/, ''));
    return Promise.all(
      [`${base}.webp`, `${base}-800.webp`, `${base}-400.webp`].map(async (file) => {
        const { format, width, height } = await sharp(fs.readFileSync(file)).metadata();
        return { file: path.basename(file), format, width, height };
      }),
    );
  };
  const message = (res: { body: string }) => json(res).message;

  test('upload-url → PUT a PNG → normalize gives /uploads/products/<key>.webp with 1600/800/400 variants', async () => {
    const target = await uploadUrl();
    expect(target.uploadURL).toMatch(/^\/api\/admin\/images\/upload\/[\w.-]+$/);
    expect(target.uploadURL.length).toBeLessThan(25 + 100);
    expect(target.maxBytes).toBe(MAX_UPLOAD_BYTES);
    const ttl = Date.parse(target.expiresAt) - Date.now();
    expect(ttl).toBeGreaterThan(14 * 60 * 1000);
    expect(ttl).toBeLessThanOrEqual(15 * 60 * 1000);

    const png = await image(2400, 1200).png().toBuffer();
    const stored = await put(target.uploadURL, png, 'image/png');
    expect(stored.statusCode, stored.body).toBe(200);

    const res = await normalize(target.uploadURL);
    expect(res.statusCode, res.body).toBe(200);
    const { normalizedPath } = normalizeImageResultSchema.parse(json(res));
    expect(normalizedPath).toMatch(/^\/uploads\/products\/[0-9a-f]+\.webp$/);

    const base = normalizedPath.replace(/\.webp$/, '');
    for (const [url, width] of [
      [normalizedPath, 1600],
      [`${base}-800.webp`, 800],
      [`${base}-400.webp`, 400],
    ] as const) {
      const file = await t().client().get(url);
      expect(file.statusCode, url).toBe(200);
      expect(file.headers['content-type']).toBe('image/webp');
      expect(file.headers['cache-control']).toMatch(/max-age=31536000/);
      expect(file.headers['x-content-type-options']).toBe('nosniff');
      const meta = await sharp(file.rawPayload).metadata();
      // The 2:1 upload is padded into the catalogue's square frame.
      expect(meta).toMatchObject({ format: 'webp', width, height: width });
    }
    // The raw upload is gone once normalised.
    expect(incomingFiles()).toHaveLength(0);

    // The normalised path is accepted as a product image.
    const [product] = await t().services.catalog.listProducts();
    const saved = await admin.put(`/api/admin/products/${product.id}`, {
      ...product,
      images: [normalizedPath, ...product.images],
    });
    expect(saved.statusCode, saved.body).toBe(200);
  });

  test('a JPEG is accepted (small images are not enlarged) and EXIF metadata is dropped', async () => {
    const target = await uploadUrl();
    const jpeg = await image(300, 200)
      .jpeg()
      .withMetadata({ exif: { IFD0: { Copyright: 'secret-location' } } })
      .toBuffer();
    expect((await put(target.uploadURL, jpeg, 'image/jpeg')).statusCode).toBe(200);
    const { normalizedPath } = normalizeImageResultSchema.parse(
      json(await normalize(`http://localhost${target.uploadURL}`)),
    );
    const file = await t().client().get(normalizedPath);
    const meta = await sharp(file.rawPayload).metadata();
    expect(meta.width).toBe(300);
    expect(meta.exif).toBeUndefined();
    expect((await writtenVariants(normalizedPath)).map((v) => [v.format, v.width, v.height])).toEqual([
      ['webp', 300, 300],
      ['webp', 300, 300],
      ['webp', 300, 300],
    ]);
  });

  /** Uploads and normalises `body`; the 1600 px result as raw RGB pixels. */
  async function normalizedPixels(body: Buffer, contentType: string) {
    const target = await uploadUrl();
    expect((await put(target.uploadURL, body, contentType)).statusCode).toBe(200);
    const res = await normalize(target.uploadURL);
    expect(res.statusCode, res.body).toBe(200);
    const { normalizedPath } = normalizeImageResultSchema.parse(json(res));
    const file = await t().client().get(normalizedPath);
    const { data, info } = await sharp(file.rawPayload).removeAlpha().raw().toBuffer({ resolveWithObject: true });
    const at = (x: number, y: number) => [...data.subarray((y * info.width + x) * 3, (y * info.width + x) * 3 + 3)];
    return { width: info.width, height: info.height, at };
  }
  const close = (a: number[], b: number[]) => a.every((v, i) => Math.abs(v - b[i]!) <= 6);

  test('a wide studio shot is padded, not cropped, to the square frame on its own white backdrop', async () => {
    // A red piece on a white sweep, its edges reaching the left and right of a 3:2 frame.
    const wide = await sharp({ create: { width: 2400, height: 1600, channels: 3, background: '#ffffff' } })
      .composite([{ input: await image(2400, 800).png().toBuffer(), top: 400, left: 0 }])
      .png()
      .toBuffer();
    const px = await normalizedPixels(wide, 'image/png');
    expect([px.width, px.height]).toEqual([1600, 1600]);
    // Nothing cut: the piece still spans the whole width, in the middle; above and below it, white.
    expect(close(px.at(2, 800), [200, 40, 40])).toBe(true);
    expect(close(px.at(1597, 800), [200, 40, 40])).toBe(true);
    expect(close(px.at(800, 5), [255, 255, 255])).toBe(true);
    expect(close(px.at(800, 1594), [255, 255, 255])).toBe(true);
  });

  test('a tall photo with a busy edge is set on the shop\'s image well, centred', async () => {
    // Stripes down both sides: no plain backdrop to extend, so the padding is the well (#ebe9e2).
    const stripes = await sharp({ create: { width: 20, height: 3000, channels: 3, background: '#101010' } })
      .composite(Array.from({ length: 30 }, (_, i) => ({
        input: { create: { width: 20, height: 50, channels: 3, background: '#f0f0f0' } },
        top: i * 100,
        left: 0,
      })) as never)
      .png()
      .toBuffer();
    const tall = await image(1000, 3000)
      .composite([{ input: stripes, left: 0, top: 0 }, { input: stripes, left: 980, top: 0 }])
      .png()
      .toBuffer();
    const px = await normalizedPixels(tall, 'image/png');
    expect([px.width, px.height]).toEqual([1600, 1600]);
    expect(close(px.at(5, 800), [0xeb, 0xe9, 0xe2])).toBe(true);
    expect(close(px.at(1594, 800), [0xeb, 0xe9, 0xe2])).toBe(true);
    // The photo, 533 px wide after the fit, sits in the middle with its full height.
    expect(close(px.at(800, 3), [200, 40, 40])).toBe(true);
    expect(close(px.at(800, 1596), [200, 40, 40])).toBe(true);
  });

  test("a 3 MB photo-like PNG is accepted (uploads are not held to the API's 1 MB JSON limit)", async () => {
    const noisy = await sharp({
      create: {
        width: 1400,
        height: 1000,
        channels: 3,
        background: '#808080',
        noise: { type: 'gaussian', mean: 128, sigma: 40 },
      },
    })
      .png({ compressionLevel: 1 })
      .toBuffer();
    expect(noisy.length).toBeGreaterThan(2 * 1024 * 1024);
    const target = await uploadUrl();
    const res = await put(target.uploadURL, noisy, 'image/png');
    expect(res.statusCode, res.body).toBe(200);
    const done = await normalize(target.uploadURL);
    expect(done.statusCode, done.body).toBe(200);
    const { normalizedPath } = normalizeImageResultSchema.parse(json(done));
    expect((await writtenVariants(normalizedPath)).map((v) => [v.format, v.width, v.height])).toEqual([
      ['webp', 1400, 1400],
      ['webp', 800, 800],
      ['webp', 400, 400],
    ]);
  });

  test('an upload URL works once', async () => {
    const target = await uploadUrl();
    const png = await image(10, 10).png().toBuffer();
    expect((await put(target.uploadURL, png, 'image/png')).statusCode).toBe(200);
    const again = await put(target.uploadURL, png, 'image/png');
    expect(again.statusCode).toBe(409);
    expect(message(again)).toBe('Upload link has already been used');
    // Still refused after normalisation deleted the raw file.
    expect((await normalize(target.uploadURL)).statusCode).toBe(200);
    const late = await put(target.uploadURL, png, 'image/png');
    expect(late.statusCode).toBe(409);
    expect(message(late)).toBe('Upload link has already been used');
  });

  test('an expired or tampered upload URL is refused', async () => {
    const png = await image(10, 10).png().toBuffer();
    const expired = await t().services.images.store.createUploadTarget('incoming/expired-one', {
      maxBytes: MAX_UPLOAD_BYTES,
      expiresInMs: -1000,
    });
    const res = await put(expired.url, png, 'image/png');
    expect(res.statusCode).toBe(403);
    expect(message(res)).toBe('Upload link has expired; request a new one');

    const target = await uploadUrl();
    const token = target.uploadURL.split('/').pop()!;
    const cut = token.lastIndexOf('.');
    const [claims, signature] = [token.slice(0, cut), token.slice(cut + 1)];
    const longer = claims.replace(
      /^([^.]+)\.([^.]+)\.([^.]+)\./,
      (_m, id: string, exp: string) => `${id}.${exp}.zzzzzzz.`,
    );
    expect(longer).not.toBe(claims);
    for (const forged of [
      `${longer}.${signature}`,
      `x${claims.slice(1)}.${signature}`,
      `${claims}.${signature.slice(0, -2)}xx`,
      `..%2F..%2Fetc.1.1...${signature}`,
    ]) {
      const res = await put(`/api/admin/images/upload/${forged}`, png, 'image/png');
      expect(res.statusCode, forged).toBe(403);
      expect(message(res), forged).toBe('Upload link is not valid');
      const refused = await normalize(`/api/admin/images/upload/${forged}`);
      expect(refused.statusCode, forged).toBe(400);
      expect(message(refused), forged).toBe('Unknown upload: send the uploadURL the file was uploaded to');
    }
    // Nothing was written for any of them.
    expect(incomingFiles()).toHaveLength(0);
  });

  test('SVG, HTML, text disguised as PNG and other types are refused and nothing is stored', async () => {
    const cases: Array<[string, string | Buffer]> = [
      ['image/svg+xml', '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>'],
      ['image/png', '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>'],
      ['text/html', '<!doctype html><script>alert(1)</script>'],
      ['image/png', 'This is plain text, not a PNG.'],
      ['application/octet-stream', '<html><body>hi</body></html>'],
      ['image/gif', await image(5, 5).gif().toBuffer()],
      ['application/json', '{"a":1}'],
    ];
    for (const [type, body] of cases) {
      const target = await uploadUrl();
      const res = await put(target.uploadURL, Buffer.from(body), type);
      expect(res.statusCode, `${type}: ${res.body}`).toBe(415);
      expect(message(res), type).toBe('Only JPEG, PNG, WebP or AVIF images are accepted');
      const refused = await normalize(target.uploadURL);
      expect(refused.statusCode, type).toBe(400);
      expect(message(refused), type).toBe('Nothing has been uploaded to this URL');
    }
    expect(incomingFiles()).toHaveLength(0);
  });

  test('files over 10 MB are refused on PUT', async () => {
    const target = await uploadUrl();
    const big = Buffer.concat([await image(10, 10).png().toBuffer(), Buffer.alloc(MAX_UPLOAD_BYTES)]);
    const res = await put(target.uploadURL, big, 'image/png');
    expect(res.statusCode).toBe(413);
    // The route's body limit answers before the store's own 'Images can be at most 10 MB' check.
    expect(message(res)).toBe('Request body is too large');
    expect(incomingFiles()).toHaveLength(0);
  });

  test('normalize re-checks what reached the store (as with direct-to-S3 uploads) and deletes refusals', async () => {
    const store = t().services.images.store;
    const check = async (body: Buffer, message: RegExp) => {
      const target = await uploadUrl();
      const key = store.keyFromUploadUrl(target.uploadURL)!;
      await store.put(key, body, { contentType: 'application/octet-stream' });
      const res = await normalize(target.uploadURL);
      expect(res.statusCode, res.body).toBe(400);
      expect(json(res).message).toMatch(message);
      expect(await store.size(key)).toBeNull();
    };
    await check(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'), /JPEG, PNG, WebP or AVIF/);
    await check(
      Buffer.concat([await image(10, 10).png().toBuffer(), Buffer.alloc(MAX_UPLOAD_BYTES)]),
      /10 MB/,
    );
    // 8000 × 5001 = 40,008,000 pixels: one row over the limit.
    await check(await image(8000, 5001).png({ compressionLevel: 9 }).toBuffer(), /40 megapixels/);
    // A truncated PNG: right magic bytes, unreadable body.
    await check((await image(200, 200).png().toBuffer()).subarray(0, 60), /could not be read/);

    for (const foreign of ['/api/admin/images/upload/nope', 'https://elsewhere.example.com/x.png']) {
      const res = await normalize(foreign);
      expect(res.statusCode, foreign).toBe(400);
      expect(message(res), foreign).toBe('Unknown upload: send the uploadURL the file was uploaded to');
    }
    const unused = await uploadUrl();
    const nothing = await normalize(unused.uploadURL);
    expect(nothing.statusCode).toBe(400);
    expect(json(nothing).message).toMatch(/Nothing has been uploaded/);
  });

  test('type and size can be bound into the upload URL', async () => {
    const png = await image(20, 20).png().toBuffer();
    const target = await uploadUrl({ contentType: 'image/png', size: png.length });
    const wrongType = await put(target.uploadURL, png, 'image/jpeg');
    expect(wrongType.statusCode).toBe(400);
    expect(message(wrongType)).toBe('The uploaded file does not have the type the upload link was made for');
    const wrongSize = await put(target.uploadURL, Buffer.concat([png, Buffer.alloc(1)]), 'image/png');
    expect(wrongSize.statusCode).toBe(400);
    expect(message(wrongSize)).toBe('The uploaded file does not have the size the upload link was made for');
    expect(incomingFiles()).toHaveLength(0);
    expect((await put(target.uploadURL, png, 'image/png')).statusCode).toBe(200);

    const svg = await admin.post('/api/admin/images/upload-url', { contentType: 'image/svg+xml' });
    expect(svg.statusCode).toBe(400);
    expect(message(svg)).toBe('Only JPEG, PNG, WebP or AVIF images can be uploaded');
    const huge = await admin.post('/api/admin/images/upload-url', {
      contentType: 'image/png',
      size: MAX_UPLOAD_BYTES + 1,
    });
    expect(huge.statusCode).toBe(400);
    expect(message(huge)).toBe('Images can be at most 10 MB');
  });

  test('WebP and AVIF uploads are accepted', async () => {
    for (const [type, body] of [
      ['image/webp', await image(50, 40).webp().toBuffer()],
      ['image/avif', await image(50, 40).avif().toBuffer()],
    ] as const) {
      const target = await uploadUrl();
      expect((await put(target.uploadURL, body, type)).statusCode).toBe(200);
      const res = await normalize(target.uploadURL);
      expect(res.statusCode, `${type}: ${res.body}`).toBe(200);
      const { normalizedPath } = normalizeImageResultSchema.parse(json(res));
      expect((await writtenVariants(normalizedPath)).map((v) => [v.format, v.width, v.height]), type).toEqual([
        ['webp', 50, 50],
        ['webp', 50, 50],
        ['webp', 50, 50],
      ]);
    }
  });
});
