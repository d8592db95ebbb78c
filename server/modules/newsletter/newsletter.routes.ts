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
      // New or already on the list: the same answer (docs/security.md, "Who is on the list"); the mailbox is told by mail.
      await opts.newsletter.subscribe(request.body.email);
      reply.status(201);
      return { email: request.body.email, message: 'Successfully subscribed!' };
    },
  );
}
