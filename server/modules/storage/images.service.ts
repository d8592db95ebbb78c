import crypto from 'node:crypto';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import {
  IMAGE_VARIANT_WIDTHS,
  MAX_IMAGE_PIXELS,
  MAX_UPLOAD_BYTES,
  UPLOAD_URL_TTL_MS,
  type NormalizeImageResult,
  type UploadUrlBody,
  type UploadUrlResult,
} from '../../../common/contracts/admin';
import type { Config } from '../../config';
import { badRequest, HttpError, notFound } from '../../lib/http-error';
import { sniffImageType } from './image-type';
import { IMAGE_WELL, squarePadding } from './image-canvas';
import type { KeyService } from '../../lib/keys';
import { LocalObjectStore } from './local-object-store';
import { INCOMING_PREFIX, type ObjectStore } from './object-store';

// sharp (libvips) is loaded with the first image, not at boot.
const loadSharp = () => import('sharp').then((m) => m.default);

const IMMUTABLE = 'public, max-age=31536000, immutable';

/** S3 when S3_BUCKET is set (the AWS SDK is imported only then), else local disk under DATA_DIR. */
export async function createObjectStore(config: Config, keys: KeyService): Promise<ObjectStore> {
  if (config.S3_BUCKET) {
    const { S3ObjectStore } = await import('./s3-object-store');
    return new S3ObjectStore({
      bucket: config.S3_BUCKET,
      region: config.S3_REGION,
      endpoint: config.S3_ENDPOINT,
      accessKeyId: config.S3_ACCESS_KEY_ID,
      secretAccessKey: config.S3_SECRET_ACCESS_KEY,
      publicUrl: config.S3_PUBLIC_URL,
    });
  }
  return new LocalObjectStore({
    uploadsDir: path.join(config.DATA_DIR, 'uploads'),
    incomingDir: path.join(config.DATA_DIR, 'upload-incoming'),
    tokensDir: path.join(config.DATA_DIR, 'upload-tokens'),
    // Upload URLs live minutes: a key of their own (an upload signed before this key existed is simply asked again).
    key: keys.derive('fifty:upload-token'),
  });
}

/** Variant keys the storefront derives its srcset from: `<key>.webp`, `<key>-800.webp`, `<key>-400.webp`. */
export function variantKeys(base: string): Array<{ key: string; width: number }> {
  return IMAGE_VARIANT_WIDTHS.map((width, i) => ({
    key: i === 0 ? `${base}.webp` : `${base}-${width}.webp`,
    width,
  }));
}

export function createImagesService(store: ObjectStore, log: FastifyBaseLogger) {
  let queue: Promise<unknown> = Promise.resolve();

  async function refuse(key: string, message: string): Promise<never> {
    await store
      .delete(key)
      .catch((err: unknown) => log.warn({ err, key }, 'could not delete a refused upload'));
    throw badRequest(message);
  }

  return {
    store,

    async createUploadUrl(body: UploadUrlBody): Promise<UploadUrlResult> {
      const key = `${INCOMING_PREFIX}${crypto.randomBytes(16).toString('hex')}`;
      const target = await store.createUploadTarget(key, {
        contentType: body.contentType,
        size: body.size,
        maxBytes: MAX_UPLOAD_BYTES,
        expiresInMs: UPLOAD_URL_TTL_MS,
      });
      return {
        uploadURL: target.url,
        method: 'PUT',
        maxBytes: MAX_UPLOAD_BYTES,
        expiresAt: target.expiresAt.toISOString(),
      };
    },

    /** Body of a PUT to a local upload URL; the bytes must already look like an accepted image. */
    async receiveLocalUpload(token: string, contentType: string, body: Buffer): Promise<void> {
      if (!(store instanceof LocalObjectStore)) throw notFound('Uploads go to the object store directly');
      if (body.length > 0 && !sniffImageType(body)) {
        throw new HttpError(415, 'Only JPEG, PNG, WebP or AVIF images are accepted');
      }
      await store.acceptUpload(token, { contentType, body });
    },

    normalize(imageUrl: string): Promise<NormalizeImageResult> {
      // One image at a time: a 40-megapixel decode is large, and the box is shared with the shop.
      const run = queue.then(() => normalizeNow(imageUrl));
      queue = run.catch(() => undefined);
      return run;
    },

    /** Product images must come from our own storage (seed images and uploads included). */
    isOwnImageUrl(url: string): boolean {
      if (store.isOwnPublicUrl(url)) return true;
      return (
        /^\/uploads\/[A-Za-z0-9][A-Za-z0-9/_.-]*$/.test(url) && !url.includes('..') && !url.includes('//')
      );
    },

    async prune(): Promise<number> {
      return store instanceof LocalObjectStore ? store.prune() : 0;
    },
  };

  /**
   * Checks an uploaded file by its bytes and size, renders the WebP variants, stores them and
   * deletes the raw upload. Anything refused is deleted too.
   */
  async function normalizeNow(imageUrl: string): Promise<NormalizeImageResult> {
    const key = store.keyFromUploadUrl(imageUrl);
    if (!key) throw badRequest('Unknown upload: send the uploadURL the file was uploaded to');
    const size = await store.size(key);
    if (size === null) throw badRequest('Nothing has been uploaded to this URL');
    if (size > MAX_UPLOAD_BYTES) return refuse(key, 'Images can be at most 10 MB');
    const raw = await store.get(key);
    if (!raw) throw badRequest('Nothing has been uploaded to this URL');
    if (!sniffImageType(raw)) return refuse(key, 'Only JPEG, PNG, WebP or AVIF images are accepted');

    let variants: Array<{ key: string; body: Buffer }>;
    const base = `products/${crypto.randomBytes(12).toString('hex')}`;
    try {
      // Reads the header only, so a huge image is measured without being decoded.
      const meta = await (await loadSharp())(raw, { limitInputPixels: false }).metadata();
      if (!meta.width || !meta.height) return await refuse(key, 'The image could not be read');
      if (meta.width * meta.height > MAX_IMAGE_PIXELS)
        return await refuse(key, 'Images can be at most 40 megapixels');
      // One decode (shrink-on-load where the format allows) to at most 1600 on its long side; the
      // smaller variants are made from those pixels. rotate() applies the EXIF orientation, and no
      // metadata (GPS and all) is copied to the output. Transparency is laid on the image well, and
      // the picture padded to the catalogue's square frame (image-canvas.ts says why not cropped).
      const side = IMAGE_VARIANT_WIDTHS[0];
      const fitted = await (await loadSharp())(raw, { limitInputPixels: MAX_IMAGE_PIXELS, failOn: 'error' })
        .rotate()
        .resize({ width: side, height: side, fit: 'inside', withoutEnlargement: true })
        .flatten({ background: IMAGE_WELL })
        .toColourspace('srgb')
        .raw()
        .toBuffer({ resolveWithObject: true });
      const pad = squarePadding(fitted.data, fitted.info.width, fitted.info.height, fitted.info.channels);
      const { data, info } = pad
        ? await (await loadSharp())(fitted.data, {
            raw: { width: fitted.info.width, height: fitted.info.height, channels: fitted.info.channels as 3 },
          })
            .extend(pad)
            .raw()
            .toBuffer({ resolveWithObject: true })
        : fitted;
      const pixels = {
        raw: { width: info.width, height: info.height, channels: info.channels as 1 | 2 | 3 | 4 },
      };
      variants = [];
      for (const v of variantKeys(base)) {
        const body = await (await loadSharp())(data, pixels)
          .resize({ width: v.width, withoutEnlargement: true })
          .webp({ quality: 82 })
          .toBuffer();
        variants.push({ key: v.key, body });
      }
    } catch (err) {
      if (err instanceof HttpError) throw err;
      log.info({ err, key }, 'uploaded image refused: unreadable');
      return refuse(key, 'The image could not be read');
    }
    for (const v of variants)
      await store.put(v.key, v.body, { contentType: 'image/webp', cacheControl: IMMUTABLE });
    await store.delete(key);
    return { normalizedPath: store.publicUrl(`${base}.webp`) };
  }
}

export type ImagesService = ReturnType<typeof createImagesService>;
