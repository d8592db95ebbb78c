import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorResponses } from '../../../common/contracts/api-error';
import { ticketEmailBody, ticketHeartbeatBody, ticketMessage, turnLinkQuery } from '../../../common/contracts/drop-ticket';
import { dropProductParams } from '../../../common/contracts/drops';
import type { TurnMail } from './turn-mail';

const sid = async (request: FastifyRequest) => (await request.getSession())?.sid ?? null;

/** The shopper's own ticket (common/contracts/drop-ticket.ts): "E-mail me when it's my turn", the page's heartbeat, "Leave the line". */
export async function dropTicketRoutes(app: FastifyInstance, opts: { turnMail: TurnMail }): Promise<void> {
  const { turnMail } = opts;
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.put(
    '/api/drops/:productId/ticket/email',
    {
      schema: { params: dropProductParams, body: ticketEmailBody, response: { 200: ticketMessage, ...errorResponses } },
      config: { rateLimited: 'drop-status' },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return turnMail.setEmail(request.params.productId, await sid(request), request.body.email);
    },
  );

  r.post(
    '/api/drops/:productId/ticket/heartbeat',
    {
      schema: { params: dropProductParams, body: ticketHeartbeatBody, response: { 200: ticketHeartbeatBody, ...errorResponses } },
      config: { rateLimited: 'drop-status' },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return turnMail.heartbeat(request.params.productId, await sid(request), request.body.visible);
    },
  );

  // The "your turn" mail's link: its extra time is given here, then the browser goes on to the waiting room.
  r.get(
    '/api/drops/:productId/turn',
    { schema: { params: dropProductParams, querystring: turnLinkQuery, response: { ...errorResponses } }, config: { rateLimited: 'drop-status' } },
    async (request, reply) => {
      await turnMail.followLink(request.params.productId, await sid(request), request.query.token);
      return reply.header('cache-control', 'no-store').redirect(`/product/${request.params.productId}#waiting-room`, 303);
    },
  );

  r.delete(
    '/api/drops/:productId/queue',
    { schema: { params: dropProductParams, response: { 200: ticketMessage, ...errorResponses } }, config: { rateLimited: 'drop-status' } },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return turnMail.leave(request.params.productId, await sid(request));
    },
  );
}
