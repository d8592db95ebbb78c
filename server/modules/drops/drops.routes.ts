import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorResponses } from '../../../common/contracts/api-error';
import {
  adminDropListSchema,
  adminDropSchema,
  adminDropUpdate,
  admissionPassSchema,
  dropProductParams,
  dropStatusSchema,
  joinQueueBody,
  type AdmissionPass,
  type DropStatus,
} from '../../../common/contracts/drops';
import { cookieOptions } from '../../lib/cookies';
import { refusalHeaders } from '../../lib/event-stream-hub';
import type { DropsService } from './drops.service';

const sid = async (request: FastifyRequest) => (await request.getSession())?.sid ?? null;
const statusResponse = { 200: dropStatusSchema, ...errorResponses };
const joinedResponse = { 200: dropStatusSchema, 201: dropStatusSchema, ...errorResponses };

/**
 * The waiting room (common/contracts/drops.ts; ADR 010): status, join, the live event stream and the
 * admission pass. The stream is written straight to the socket (hijacked): never compressed, never
 * cached, ended when the app closes.
 */
export async function dropsRoutes(app: FastifyInstance, opts: { drops: DropsService; secureCookies: boolean }): Promise<void> {
  const { drops } = opts;
  const r = app.withTypeProvider<ZodTypeProvider>();

  // Answered from the room's last read in memory (drops.service.ts); anonymous and the 2 s fallback poll
  // of a refused stream, so limited per address, generously (rate-limits.ts, 'drop-status').
  r.get(
    '/api/drops/:productId',
    { schema: { params: dropProductParams, response: statusResponse }, config: { rateLimited: 'drop-status' } },
    async (request, reply): Promise<DropStatus> => {
      reply.header('cache-control', 'no-store');
      return drops.status(request.params.productId, await sid(request));
    },
  );

  // Join (POST …/queue), and "Rejoin the line" (POST …/rejoin) once a pass lapsed unused: a new place at the
  // back, with a fresh proof of work. Both answer 201 when a place was made, 200 when the session had one.
  for (const [path, action] of [
    ['queue', 'join'],
    ['rejoin', 'rejoin'],
  ] as const) {
    r.post(
      `/api/drops/:productId/${path}`,
      { schema: { params: dropProductParams, body: joinQueueBody, response: joinedResponse }, config: { rateLimited: 'drop-join' } },
      async (request, reply): Promise<DropStatus> => {
        const { status, created } = await drops[action](request.params.productId, {
          sessionId: await sid(request),
          ensureSession: async () => (await request.ensureSession()).sid,
          ip: request.ip,
          altcha: request.body.altcha,
        });
        reply.header('cache-control', 'no-store').status(created ? 201 : 200);
        return status;
      },
    );
  }

  r.post('/api/drops/:productId/pass', { schema: { params: dropProductParams, response: { 200: admissionPassSchema, ...errorResponses } } }, async (request, reply): Promise<AdmissionPass> => {
    const { pass, cookie, maxAgeMs } = await drops.issuePass(request.params.productId, await sid(request), request.shopper.passes);
    // Written as a header line at once: the cookie plugin runs without its onSend hook (server/plugins/session.ts).
    // The request-scoped shopper read the pass cookie (parsed once); the service verified its tokens.
    const line = app.serializeCookie(drops.passCookieName, cookie, cookieOptions(request, opts.secureCookies, maxAgeMs, Math.ceil));
    reply.header('cache-control', 'no-store').header('set-cookie', line); // Fastify appends to earlier Set-Cookie lines
    return pass;
  });

  r.get(
    '/api/drops/:productId/events',
    { schema: { params: dropProductParams }, config: { rateLimited: 'drop-status' } },
    async (request, reply) => {
      // The slot is taken before anything is awaited, so a client that leaves at any point gives it back
      // (server/lib/event-stream-hub.ts); refused: 503 (this server is full) or 429 (this address is).
      const slot = drops.streams.reserve(request.raw, reply.raw, request.ip);
      if (slot.refused) return reply.code(slot.status).headers(refusalHeaders(slot)).send({ message: slot.message });
      let sessionId: string | null;
      let first: DropStatus;
      try {
        sessionId = await sid(request);
        // 404 (no such drop) is an ordinary JSON answer; from here on the socket is ours.
        first = await drops.status(request.params.productId, sessionId);
      } catch (err) {
        slot.release();
        throw err;
      }
      reply.hijack();
      drops.startStream(slot, request.params.productId, sessionId, first, reply.getHeaders() as Record<string, string>);
    },
  );
}

/** The owner's Drops view (registered inside adminRoutes, so its login check applies). */
export async function adminDropsRoutes(app: FastifyInstance, opts: { drops: DropsService }): Promise<void> {
  const { drops } = opts;
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get('/api/admin/drops', { schema: { response: { 200: adminDropListSchema, ...errorResponses } } }, async () => drops.adminList());
  r.patch(
    '/api/admin/drops/:productId',
    { schema: { params: dropProductParams, body: adminDropUpdate, response: { 200: adminDropSchema, ...errorResponses } } },
    async (request) => drops.adminUpdate(request.params.productId, request.body),
  );
}
