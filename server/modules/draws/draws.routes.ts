import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorResponses } from '../../../common/contracts/api-error';
import {
  adminDrawEntryListSchema,
  adminDrawCreate,
  adminDrawListSchema,
  adminDrawSchema,
  adminDrawUpdate,
  changeDrawEntryBody,
  confirmDrawEntryBody,
  drawEntryTokenParams,
  drawEntryViewSchema,
  drawIdParams,
  drawProductParams,
  enterDrawBody,
  enterDrawResult,
  publicDrawSchema,
  type AdminDraw,
  type ChangeDrawEntryBody,
  type ConfirmDrawEntryBody,
  type DrawEntryView,
  type EnterDrawBody,
  type EnterDrawResult,
} from '../../../common/contracts/draws';
import type { DrawsService } from './draws.service';

/** Who asks (the decline budget counts against it: docs/security.md, "Card testing"). */
export interface DrawRequester {
  address: string;
  sessionId: string | null;
}

/** The shopper's flows (server/flows/enter-draw.ts): they fit as they are. */
export interface DrawEntryFlows {
  enter(drawId: string, body: EnterDrawBody, who: DrawRequester): Promise<EnterDrawResult>;
  view(token: string): Promise<DrawEntryView>;
  confirm(token: string, who: DrawRequester, body?: ConfirmDrawEntryBody): Promise<DrawEntryView>;
  changeSizes(token: string, change: ChangeDrawEntryBody): Promise<DrawEntryView>;
  withdraw(token: string): Promise<DrawEntryView>;
}

/** The owner's running of a draw (server/flows/settle-draw.ts). */
export interface DrawSettleFlows {
  runNow(id: string): Promise<AdminDraw>;
  cancel(id: string): Promise<AdminDraw>;
}

const noStore = { 'cache-control': 'no-store' };

/** Public draw routes (common/contracts/draws.ts; docs/draw.md). */
export async function drawsRoutes(app: FastifyInstance, opts: { draws: DrawsService; entries: DrawEntryFlows }): Promise<void> {
  const { draws, entries } = opts;
  const r = app.withTypeProvider<ZodTypeProvider>();
  const requester = async (request: FastifyRequest): Promise<DrawRequester> => ({
    address: request.shopper.address,
    sessionId: await request.shopper.sessionId(),
  });

  r.get('/api/draws/:id', { schema: { params: drawIdParams, response: { 200: publicDrawSchema, ...errorResponses } } }, async (request, reply) => {
    reply.headers(noStore);
    return draws.publicDraw(request.params.id);
  });
  r.get(
    '/api/products/:productId/draw',
    { schema: { params: drawProductParams, response: { 200: publicDrawSchema.nullable(), ...errorResponses } } },
    async (request, reply) => {
      reply.headers(noStore);
      return draws.publicDrawOfProduct(request.params.productId);
    },
  );

  // Entering authorises a card: a proof of work and the waiting room's join limits, like joining a drop.
  r.post(
    '/api/draws/:id/entries',
    {
      schema: { params: drawIdParams, body: enterDrawBody, response: { 202: enterDrawResult, ...errorResponses } },
      config: { botChecked: true, rateLimited: 'drop-join' },
    },
    async (request, reply) => {
      const result = await entries.enter(request.params.id, request.body, await requester(request));
      // The shop's own time for the entry (standard Server-Timing; bench:draw reads it beside the time its
      // client saw, so queueing outside the shop's handler is told apart).
      return reply
        .headers({ ...noStore, 'server-timing': `app;dur=${reply.elapsedTime.toFixed(1)}` })
        .code(202)
        .send(result);
    },
  );

  const entryResponse = { response: { 200: drawEntryViewSchema, ...errorResponses } };
  r.get('/api/draw-entries/:token', { schema: { params: drawEntryTokenParams, ...entryResponse } }, async (request, reply) => {
    reply.headers(noStore);
    return entries.view(request.params.token);
  });
  // Confirming authorises the card (docs/draw.md): the decline budget of the flow applies, 429 past it.
  r.post(
    '/api/draw-entries/:token/confirm',
    { schema: { params: drawEntryTokenParams, body: confirmDrawEntryBody, ...entryResponse } },
    async (request, reply) => {
      reply.headers(noStore);
      return entries.confirm(request.params.token, await requester(request), request.body);
    },
  );
  r.patch(
    '/api/draw-entries/:token',
    { schema: { params: drawEntryTokenParams, body: changeDrawEntryBody, ...entryResponse } },
    async (request, reply) => {
      reply.headers(noStore);
      return entries.changeSizes(request.params.token, request.body);
    },
  );
  r.delete('/api/draw-entries/:token', { schema: { params: drawEntryTokenParams, ...entryResponse } }, async (request, reply) => {
    reply.headers(noStore);
    return entries.withdraw(request.params.token);
  });
}

/** The owner's draws (registered inside adminRoutes, so its login check applies). */
export async function adminDrawsRoutes(app: FastifyInstance, opts: { draws: DrawsService; settle: DrawSettleFlows }): Promise<void> {
  const { draws, settle } = opts;
  const r = app.withTypeProvider<ZodTypeProvider>();
  const one = { response: { 200: adminDrawSchema, ...errorResponses } };
  r.get('/api/admin/draws', { schema: { response: { 200: adminDrawListSchema, ...errorResponses } } }, async () => draws.adminList());
  r.post(
    '/api/admin/draws',
    { schema: { body: adminDrawCreate, response: { 201: adminDrawSchema, ...errorResponses } } },
    async (request, reply) => reply.code(201).send(await draws.createDraw(request.body)),
  );
  r.get('/api/admin/draws/:id', { schema: { params: drawIdParams, ...one } }, async (request) => draws.adminDraw(request.params.id));
  r.patch('/api/admin/draws/:id', { schema: { params: drawIdParams, body: adminDrawUpdate, ...one } }, async (request) =>
    draws.updateDraw(request.params.id, request.body),
  );
  r.post('/api/admin/draws/:id/run', { schema: { params: drawIdParams, ...one } }, async (request) => settle.runNow(request.params.id));
  r.get('/api/admin/draws/:id/entries', { schema: { params: drawIdParams, response: { 200: adminDrawEntryListSchema, ...errorResponses } } }, async (request) =>
    draws.adminEntries(request.params.id),
  );
  r.post('/api/admin/draws/:id/cancel', { schema: { params: drawIdParams, ...one } }, async (request) => settle.cancel(request.params.id));
}
