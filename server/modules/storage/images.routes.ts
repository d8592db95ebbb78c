import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  adminSuccessSchema,
  MAX_UPLOAD_BYTES,
  normalizeImageBody,
  normalizeImageResultSchema,
  uploadUrlBody,
  uploadUrlResultSchema,
} from '../../../common/contracts/admin';
import { errorResponses } from '../../../common/contracts/api-error';
import { HttpError } from '../../lib/http-error';
import type { ImagesService } from './images.service';

/**
 * Image upload routes. Registered inside the admin plugin, so its login check guards them all
 * (the local PUT included: it needs both the admin session and the signed single-use token).
 */
export async function imageRoutes(app: FastifyInstance, opts: { images: ImagesService }): Promise<void> {
  const { images } = opts;
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.post('/api/admin/images/upload-url', { schema: { response: { 200: uploadUrlResultSchema, ...errorResponses } } }, async (request) => {
    // The spec's client posts no body; a body may bind the file's type and size into the URL.
    return images.createUploadUrl(uploadUrlBody.parse(request.body ?? {}));
  });

  r.post('/api/admin/images/normalize', { schema: { body: normalizeImageBody, response: { 200: normalizeImageResultSchema, ...errorResponses } } }, async (request) => {
    return images.normalize(request.body.imageUrl);
  });

  // Raw bodies only here, with their own 10 MB limit; the rest of the API stays JSON-only at 1 MB.
  await app.register(async (raw) => {
    raw.removeAllContentTypeParsers();
    for (const type of [/^image\/[a-z0-9.+-]+$/i, 'application/octet-stream']) {
      raw.addContentTypeParser(
        type,
        { parseAs: 'buffer', bodyLimit: MAX_UPLOAD_BYTES },
        (_request, body, done) => done(null, body),
      );
    }
    raw.addContentTypeParser('*', (_request, _payload, done) => {
      done(new HttpError(415, 'Only JPEG, PNG, WebP or AVIF images are accepted'), undefined);
    });
    raw
      .withTypeProvider<ZodTypeProvider>()
      .put(
        '/api/admin/images/upload/:token',
        {
          bodyLimit: MAX_UPLOAD_BYTES,
          schema: { params: z.object({ token: z.string().min(1).max(2000) }), response: { 200: adminSuccessSchema, ...errorResponses } },
        },
        async (request) => {
          const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
          const contentType = (request.headers['content-type'] ?? 'application/octet-stream')
            .split(';')[0]
            .trim()
            .toLowerCase();
          await images.receiveLocalUpload(request.params.token, contentType, body);
          return { success: true as const };
        },
      );
  });
}
