import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorResponses } from '../../../common/contracts/api-error';
import { adminCreditGrant, checkoutCreditBalanceSchema, creditAccountListSchema, creditAccountSchema, type CheckoutCreditBalance } from '../../../common/contracts/store-credit';
import type { StoreCreditService } from './store-credit.service';

/** The buyer's balance at checkout, for the session's saved e-mail (the checkout-credit flow). */
export async function storeCreditRoutes(app: FastifyInstance, opts: { balanceForSession: (sessionId: string | null) => Promise<CheckoutCreditBalance> }): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get('/api/checkout/store-credit', { schema: { response: { 200: checkoutCreditBalanceSchema, ...errorResponses } } }, async (request) =>
    opts.balanceForSession(await request.shopper.sessionId()),
  );
}

/** The owner's store credit (docs/product.md "Store credit"), behind the admin routes' login check. */
export async function adminStoreCreditRoutes(app: FastifyInstance, opts: { storeCredit: StoreCreditService }): Promise<void> {
  const { storeCredit } = opts;
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get('/api/admin/store-credit', { schema: { response: { 200: creditAccountListSchema, ...errorResponses } } }, async () => storeCredit.adminList());
  r.post(
    '/api/admin/store-credit',
    { schema: { body: adminCreditGrant, response: { 201: creditAccountSchema, ...errorResponses } } },
    async (request, reply) => reply.code(201).send(await storeCredit.grantByHand(request.body)),
  );
}
