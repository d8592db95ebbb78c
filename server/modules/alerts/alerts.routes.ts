import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  alertClaim,
  alertClaimBody,
  alertSignupBody,
  alertSignupResponse,
  alertTokenQuery,
  alertUnsubscribed,
  alertUnsubscribeInfo,
} from '../../../common/contracts/alerts';
import { errorResponses } from '../../../common/contracts/api-error';
import { productIdParams } from '../../../common/contracts/catalog';
import { escapeHtml } from '../../lib/html';
import { CLAIM_COOKIE } from '../../lib/cookies';
import type { AlertsService } from './alerts.service';

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)}</title></head>
<body style="font-family:Helvetica,Arial,sans-serif;color:#111;max-width:560px;margin:0 auto;padding:32px 16px;line-height:1.5">
<main><h1 style="text-transform:uppercase;font-size:24px">${escapeHtml(title)}</h1>${body}<p><a href="/" style="color:#111">Back to the shop</a></p></main>
</body></html>`;
}

/**
 * A browser's HTML page: a string with its own content type is sent as is, never through the route's JSON
 * response contract (that one covers the JSON answer of the same route).
 */
function sendHtml(reply: FastifyReply, html: string): FastifyReply {
  return reply.type('text/html; charset=utf-8').send(html);
}

/** 'Notify me' (ADR 011): signup, the claim link of a reserved piece, one-click unsubscribe. */
export async function alertsRoutes(app: FastifyInstance, opts: { alerts: AlertsService }): Promise<void> {
  const { alerts } = opts;
  const r = app.withTypeProvider<ZodTypeProvider>();

  // RFC 8058: mail clients unsubscribe with a form POST (List-Unsubscribe=One-Click); the body says nothing else.
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: 1024 },
    (_req, _body, done) => done(null, {}),
  );

  r.post(
    '/api/products/:id/alerts',
    {
      schema: {
        params: productIdParams,
        body: alertSignupBody,
        response: { 200: alertSignupResponse, 201: alertSignupResponse },
      },
      config: { rateLimited: 'alerts', botChecked: true },
    },
    async (request, reply) => {
      const { created, kind, message } = await alerts.subscribe(request.params.id, request.body.email, request.body.size ?? null);
      // The same answer whether or not the address had asked before: nothing leaks about who signed up.
      reply.status(created ? 201 : 200);
      return { kind, message };
    },
  );

  // The claim link binds to the first browser that posts it (its signed claim cookie); ADR 011, amended.
  r.post(
    '/api/alerts/claim',
    { schema: { body: alertClaimBody, response: { 200: alertClaim } } },
    async (request) => {
      const { claim, cookie, maxAgeMs } = await alerts.claim(
        request.body.token,
        request.shopper.claimToken,
      );
      request.setSignedCookie(CLAIM_COOKIE, cookie, maxAgeMs);
      return claim;
    },
  );

  // "Add to calendar" (Notify me dialog, room-opening mail): the drop's event, RFC 5545 (alerts.calendar.ts).
  r.get('/api/products/:id/calendar.ics', { schema: { params: productIdParams } }, async (request, reply) => {
    const ics = await alerts.calendar(request.params.id);
    return reply
      .type('text/calendar; charset=utf-8')
      .header('content-disposition', 'attachment; filename="drop.ics"')
      .header('cache-control', 'no-store')
      .send(ics);
  });

  // JSON answers go through their contracts; a browser's HTML page is a string sent as is (not serialised).
  r.get(
    '/api/alerts/unsubscribe',
    { schema: { querystring: alertTokenQuery, response: { 200: alertUnsubscribeInfo, ...errorResponses } } },
    async (request, reply) => {
      const { token } = request.query;
      const { productName, unsubscribed } = await alerts.describeToken(token);
      reply.header('cache-control', 'no-store');
      if (!request.headers.accept?.includes('text/html'))
        return {
          productName,
          unsubscribed,
          message: unsubscribed ? 'You are unsubscribed.' : 'Confirm to unsubscribe.',
        };
      const body = unsubscribed
        ? `<p>You're unsubscribed: we won't e-mail you about ${escapeHtml(productName)}.</p>`
        : `<p>Stop e-mails about ${escapeHtml(productName)}?</p>
<form method="post" action="/api/alerts/unsubscribe?token=${escapeHtml(encodeURIComponent(token))}">
<input type="hidden" name="List-Unsubscribe" value="One-Click">
<button type="submit" style="background:#111;color:#fff;border:0;padding:12px 20px;font-weight:bold;font-size:16px">Unsubscribe</button>
</form>`;
      return sendHtml(reply, page('Unsubscribe', body));
    },
  );

  r.post(
    '/api/alerts/unsubscribe',
    { schema: { querystring: alertTokenQuery, response: { 200: alertUnsubscribed, ...errorResponses } } },
    async (request, reply) => {
      const result = await alerts.unsubscribe(request.query.token);
      reply.header('cache-control', 'no-store');
      if (request.headers.accept?.includes('text/html'))
        return sendHtml(reply, page('Unsubscribed', `<p>${escapeHtml(result.message)}</p>`));
      return result;
    },
  );
}
