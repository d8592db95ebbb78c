import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { newsletterBody, newsletterResponse, type NewsletterResponse } from '../../../common/contracts/newsletter';
import { errorResponses } from '../../../common/contracts/api-error';
import type { NewsletterService } from './newsletter.service';

export async function newsletterRoutes(
  app: FastifyInstance,
  opts: { newsletter: NewsletterService },
): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.post(
    '/api/newsletter',
    { schema: { body: newsletterBody, response: { 201: newsletterResponse, ...errorResponses } }, config: { rateLimited: 'newsletter', botChecked: true } },
    async (request, reply): Promise<NewsletterResponse> => {
      const subscription = await opts.newsletter.subscribe(request.body.email);
      reply.status(201);
      return { ...subscription, message: 'Successfully subscribed!' };
    },
  );
}
