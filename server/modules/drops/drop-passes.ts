import type { AdmissionPass } from '../../../common/contracts/drops';
import { dropMessages, passRequired } from '../../../common/domain/drop';
import { forbidden } from '../../lib/http-error';
import { cookieName, PASS_COOKIE } from '../../lib/cookies';
import type { KeyService } from '../../lib/keys';
import { createPassSigner } from './admission-pass';
import { iso, type DropContext } from './drop-context';
import { findDropRows, findTicket } from './drops.repository';

/**
 * Admission passes (ADR 010): the signed pass an admitted session takes (POST /api/drops/:productId/pass),
 * and the check that a cart add or payment of a product inside its drop window carries one. The pass
 * travels in one httpOnly cookie (`passCookieName`); its value comes from the request's parsed cookies
 * (the request-scoped shopper, server/lib/cookies.ts), never from a Cookie header parsed here.
 */
export function createDropPasses(ctx: DropContext, deps: { keys: KeyService; secureCookies?: boolean }) {
  const { db, clock, settings } = ctx;
  const signer = createPassSigner(deps.keys);
  const passCookieName = cookieName(PASS_COOKIE, deps.secureCookies ?? false);

  return {
    /** The cookie the pass travels in (prefixed `__Host-` on https shops). */
    passCookieName,

    /**
     * The signed pass of an admitted ticket, and the pass cookie's new value (`passes`: its current value,
     * whose other products' unexpired passes are kept).
     */
    async issuePass(
      productId: string,
      sessionId: string | null,
      passes: string | null | undefined,
    ): Promise<{ pass: AdmissionPass; cookie: string; maxAgeMs: number }> {
      const { product } = await ctx.dropProduct(productId);
      const ticket = sessionId ? await findTicket(db, productId, sessionId) : null;
      if (!sessionId || !ticket || ticket.status !== 'admitted' || !ticket.admittedAt)
        throw forbidden(dropMessages.notAdmitted(product.name));
      const expiresAtMs = ticket.admittedAt.getTime() + settings.passMs;
      const now = clock.now();
      if (expiresAtMs <= now) throw forbidden(dropMessages.passExpired(product.name));
      const token = signer.sign({ productId, ticketId: ticket.id, expiresAtMs }, sessionId);
      return {
        pass: { productId, ticketId: ticket.id, expiresAt: iso(expiresAtMs) },
        cookie: signer.merge(passes, token, productId, now),
        maxAgeMs: settings.passMs,
      };
    },

    /**
     * Cart adds and payment intents of a product inside its drop window need this session's valid pass
     * for it (403 otherwise); `passes` is the pass cookie's value. Products without a release time, not
     * released yet (refused elsewhere with 409), past their window or sold out need none. Answers the
     * products whose valid pass it saw: a pass is proof of release (the callers skip their own release
     * check for them), whatever this instance's clock.
     */
    async assertAdmitted(sessionId: string | null, productIds: readonly string[], passes: string | null | undefined): Promise<Set<string>> {
      const now = clock.now();
      const passed = new Set<string>();
      for (const productId of new Set(productIds)) {
        if (passes && signer.verify(passes, productId, sessionId, now)) {
          passed.add(productId);
          continue;
        }
        const product = (await ctx.catalog.getProduct(productId)) ?? (await ctx.catalog.getProductFresh(productId));
        const dropClock = product ? ctx.clockOf(product) : null;
        if (!product || !dropClock || !passRequired(dropClock, now, false)) continue;
        const [drop] = await findDropRows(db, [productId]);
        if (drop?.soldOutAt) continue;
        throw forbidden(dropMessages.passNeeded(product.name));
      }
      return passed;
    },
  };
}

export type DropPasses = ReturnType<typeof createDropPasses>;
