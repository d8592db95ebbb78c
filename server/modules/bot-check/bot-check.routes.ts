import type { FastifyInstance, preHandlerAsyncHookHandler } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorResponses } from '../../../common/contracts/api-error';
import { powChallengeSchema } from '../../../common/contracts/bot-check';
import type { BotCheckService } from './bot-check.service';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The request body must carry a solved proof-of-work challenge in `altcha` (bot-check.service.ts). */
    botChecked?: boolean;
  }
}

/**
 * GET /api/pow-challenge, and the bot check of every route marked `config: { botChecked: true }`: a
 * preHandler after validation and after the rate limits, so a refused or invalid request never reaches
 * the handler and a valid solution is spent only by a request that passed everything else.
 */
export async function registerBotCheck(app: FastifyInstance, opts: { botCheck: BotCheckService }): Promise<void> {
  const { botCheck } = opts;

  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get('/api/pow-challenge', { schema: { response: { 200: powChallengeSchema, ...errorResponses } } }, async (_request, reply) => {
    reply.header('cache-control', 'no-store');
    return botCheck.challenge();
  });

  const check: preHandlerAsyncHookHandler = async (request) => {
    const altcha = (request.body as { altcha?: unknown } | undefined)?.altcha;
    await botCheck.verify(typeof altcha === 'string' ? altcha : null);
  };

  app.addHook('onRoute', (route) => {
    if (!route.config?.botChecked) return;
    const existing = route.preHandler;
    route.preHandler = [...(Array.isArray(existing) ? existing : existing ? [existing] : []), check];
  });
}
