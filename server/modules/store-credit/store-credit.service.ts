import crypto from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Db, DbOrTx, Tx } from '../../db/client';
import type { AdminCreditGrant, CreditAccount } from '../../../common/contracts/store-credit';
import { mailboxKey } from '../../../common/domain/identity';
import { formatMoney } from '../../../common/domain/money';
import {
  creditBalance,
  creditExpiresAt,
  creditToApply,
  drawFromGrants,
  expiredLeft,
  isLive,
  type CreditGrantSource,
} from '../../../common/domain/store-credit';
import type { Clock } from '../../lib/db-clock';
import type { KeyService } from '../../lib/keys';
import type { MailBrand } from '../../lib/mail-template';
import type { Mailer } from '../../lib/mailer';
import { renderCreditExpiring, renderCreditGranted } from './store-credit-email';
import {
  findAccount,
  findGrantByRef,
  grantsExpiringUntold,
  grantsLeft,
  insertGrant,
  insertMoves,
  insertRedemption,
  listAccounts,
  liveRedemptionOf,
  lockAccount,
  markExpiryNotices,
  moveRedemption,
  ownersWithExpiredGrants,
  redemptionMoves,
  upsertAccount,
} from './store-credit.repository';

/** How long before a grant runs out its buyer is mailed (docs/product.md "Store credit"). */
const EXPIRY_REMINDER_DAYS = 30;

/** A mailbox's credit as the buyer and the owner see it. */
export interface CreditSummary {
  balanceCents: number;
  nextExpiry: { amountCents: number; expiresAt: Date } | null;
}

/**
 * Store credit kept like money (docs/product.md "Store credit"): a ledger per folded mailbox (ADR 013), grants
 * valid one year, spent oldest-expiring first. A checkout holds credit under a row lock on the ledger owner, so
 * parallel checkouts spending one balance take turns and the balance never goes below 0; the hold is spent with
 * the order or released when the payment fails or lapses. Callers that must write beside other records pass
 * their transaction.
 */
export function createStoreCreditService(deps: {
  db: Db;
  /** The shop's key service: keys the mailbox hash, so the ledger never holds a guessable e-mail hash. */
  keys: KeyService;
  clock: Clock;
  mailer?: Mailer;
  log?: FastifyBaseLogger;
  shopName: string;
  /** PUBLIC_URL and SUPPORT_EMAIL: the mails' shop link, refund policy and support line (server/lib/mail-template.ts). */
  shopUrl?: string;
  supportEmail?: string;
}) {
  const { db } = deps;
  const brand: MailBrand = { shopName: deps.shopName, shopUrl: deps.shopUrl, supportEmail: deps.supportEmail };
  const clock = deps.clock;
  const key = deps.keys.derive('store-credit owners');
  /** The ledger owner of an address: every spelling of one mailbox is one owner. */
  const ownerOf = (email: string) => crypto.createHmac('sha256', key).update(mailboxKey(email)).digest('hex');
  const pendingMail = new Set<Promise<unknown>>();

  function summarise(grants: Awaited<ReturnType<typeof grantsLeft>>, nowMs: number): CreditSummary {
    const balanceCents = creditBalance(grants, nowMs);
    const next = grants.filter((g) => isLive(g, nowMs) && g.leftCents > 0).sort((a, b) => a.expiresAtMs - b.expiresAtMs)[0];
    return { balanceCents, nextExpiry: next ? { amountCents: next.leftCents, expiresAt: new Date(next.expiresAtMs) } : null };
  }

  async function summaryOf(dbOrTx: DbOrTx, ownerKey: string): Promise<CreditSummary> {
    return summarise(await grantsLeft(dbOrTx, [ownerKey]), clock.now());
  }

  function mailGranted(to: string, amountCents: number, summary: CreditSummary, orderNumber: string | null): void {
    if (!deps.mailer) return;
    const message = renderCreditGranted({ to, shopName: brand, amountCents, balanceCents: summary.balanceCents, nextExpiry: summary.nextExpiry, orderNumber });
    const p = deps.mailer
      .send(message)
      .catch((err: unknown) => deps.log?.error({ err }, 'sending the credit-granted mail failed'))
      .finally(() => pendingMail.delete(p));
    pendingMail.add(p);
  }

  /**
   * A grant, valid one year from now, in the caller's transaction. `sourceRef` (a refund record's id) makes it
   * once: a retry finds the grant already written and writes nothing.
   */
  async function grant(
    tx: DbOrTx,
    g: { email: string; amountCents: number; source: CreditGrantSource; reason: string | null; orderId?: string | null; sourceRef?: string | null },
  ): Promise<{ grantId: string; created: boolean }> {
    if (!Number.isInteger(g.amountCents) || g.amountCents <= 0) throw new RangeError(`Not a credit amount: ${g.amountCents}`);
    const ownerKey = ownerOf(g.email);
    await upsertAccount(tx, ownerKey, g.email.trim());
    const row = await insertGrant(tx, {
      ownerKey,
      amountCents: g.amountCents,
      source: g.source,
      reason: g.reason,
      orderId: g.orderId ?? null,
      sourceRef: g.sourceRef ?? null,
      expiresAt: creditExpiresAt(clock.now()),
    });
    if (row) return { grantId: row.id, created: true };
    const found = await findGrantByRef(tx, g.sourceRef!);
    return { grantId: found!.id, created: false };
  }

  function toAccount(email: string, grants: Awaited<ReturnType<typeof grantsLeft>>, nowMs: number): CreditAccount {
    const s = summarise(grants, nowMs);
    return {
      email,
      balance: formatMoney(s.balanceCents),
      nextExpiry: s.nextExpiry ? { amount: formatMoney(s.nextExpiry.amountCents), expiresAt: s.nextExpiry.expiresAt.toISOString() } : null,
      grants: [...grants]
        .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime())
        .map((gr) => ({
          id: gr.id,
          amount: formatMoney(gr.amountCents),
          left: formatMoney(Math.max(0, gr.leftCents)),
          source: gr.source as CreditGrantSource,
          reason: gr.reason,
          orderId: gr.orderId,
          grantedAt: gr.createdAt.toISOString(),
          expiresAt: new Date(gr.expiresAtMs).toISOString(),
          expired: !isLive(gr, nowMs),
        })),
    };
  }

  return {
    ownerOf,
    grant,

    /** Mails the buyer the grant with the balance after it; call once the grant's transaction committed. */
    async tellGranted(email: string, amountCents: number, orderNumber: string | null): Promise<void> {
      mailGranted(email, amountCents, await summaryOf(db, ownerOf(email)), orderNumber);
    },

    /** The owner's grant by hand, with a reason; the buyer is mailed. */
    async grantByHand(body: AdminCreditGrant): Promise<CreditAccount> {
      await db.transaction((tx) => grant(tx, { email: body.email, amountCents: body.amount, source: 'manual', reason: body.reason }));
      const ownerKey = ownerOf(body.email);
      const grants = await grantsLeft(db, [ownerKey]);
      const nowMs = clock.now();
      mailGranted(body.email, body.amount, summarise(grants, nowMs), null);
      return toAccount(body.email.trim(), grants, nowMs);
    },

    /** A mailbox's balance and soonest expiry (any spelling of it). */
    async balanceOf(email: string): Promise<CreditSummary> {
      return summaryOf(db, ownerOf(email));
    },

    /** The owner's list: every account with its balance and grants, most recently used first. */
    async adminList(limit = 200): Promise<{ accounts: CreditAccount[] }> {
      const accounts = await listAccounts(db, limit);
      const grants = await grantsLeft(db, accounts.map((a) => a.ownerKey));
      const nowMs = clock.now();
      return { accounts: accounts.map((a) => toAccount(a.email, grants.filter((g) => g.ownerKey === a.ownerKey), nowMs)) };
    },

    /**
     * Holds credit for a checkout: min(balance, total), taken oldest-expiring first, under a row lock on the ledger
     * owner (parallel checkouts on one balance take turns; none sees credit another already holds). A checkout
     * that holds credit already keeps what it holds. Returns the cents held (0: no balance).
     */
    async hold(tx: Tx, h: { email: string; checkoutId: string; totalCents: number }): Promise<number> {
      const ownerKey = ownerOf(h.email);
      if (!(await lockAccount(tx, ownerKey))) return 0;
      const held = await liveRedemptionOf(tx, h.checkoutId);
      if (held) return held.amountCents;
      const nowMs = clock.now();
      const grants = await grantsLeft(tx, [ownerKey]);
      const cents = creditToApply(creditBalance(grants, nowMs), h.totalCents);
      if (cents === 0) return 0;
      const redemption = await insertRedemption(tx, { ownerKey, checkoutId: h.checkoutId, amountCents: cents });
      await insertMoves(tx, ownerKey, 'redemption', drawFromGrants(grants, cents, nowMs), redemption.id);
      return cents;
    },

    /** What a checkout holds or spent of credit (0 when none). */
    async heldFor(dbOrTx: DbOrTx, checkoutId: string): Promise<number> {
      return (await liveRedemptionOf(dbOrTx, checkoutId))?.amountCents ?? 0;
    },

    /** held → spent with the order, in the order's transaction; once. */
    async spend(tx: DbOrTx, checkoutId: string, orderId: string): Promise<number> {
      return (await moveRedemption(tx, checkoutId, 'spent', orderId))?.amountCents ?? 0;
    },

    /** held → released (the payment failed or lapsed): the credit back on the grants it came from; once. */
    async release(tx: DbOrTx, checkoutId: string): Promise<number> {
      const moved = await moveRedemption(tx, checkoutId, 'released', null);
      if (!moved) return 0;
      const moves = await redemptionMoves(tx, moved.id);
      await insertMoves(tx, moved.ownerKey, 'release', moves.map((m) => ({ grantId: m.grantId!, cents: m.cents })), moved.id);
      return moved.amountCents;
    },

    /** Job: an expiry entry closes what was left of each grant that ran out (the balance already left it out). */
    async expire(limit = 100): Promise<number> {
      let closed = 0;
      for (const ownerKey of await ownersWithExpiredGrants(db, clock.sqlNow(), limit)) {
        closed += await db.transaction(async (tx) => {
          await lockAccount(tx, ownerKey);
          const runOut = expiredLeft(await grantsLeft(tx, [ownerKey]), clock.now());
          await insertMoves(tx, ownerKey, 'expiry', runOut, null);
          return runOut.length;
        });
      }
      return closed;
    },

    /**
     * Job: mails each buyer whose grant runs out within 30 days what runs out and when, once per grant (a notice
     * row, written before the mail: a crash may skip a reminder, never send two). Grants already spent are
     * marked without a mail.
     */
    async remindExpiring(limit = 100): Promise<number> {
      const due = await grantsExpiringUntold(db, clock.sqlNow(), EXPIRY_REMINDER_DAYS, limit);
      let mailed = 0;
      for (const ownerKey of new Set(due.map((g) => g.ownerKey))) {
        const ids = due.filter((g) => g.ownerKey === ownerKey).map((g) => g.id);
        const told = await db.transaction(async (tx) => {
          const marked = new Set(await markExpiryNotices(tx, ids));
          const grants = await grantsLeft(tx, [ownerKey]);
          const nowMs = clock.now();
          const expiring = grants.filter((g) => marked.has(g.id) && isLive(g, nowMs) && g.leftCents > 0);
          const account = expiring.length > 0 ? await findAccount(tx, ownerKey) : null;
          return account ? { email: account.email, expiring, summary: summarise(grants, nowMs) } : null;
        });
        if (!told || !deps.mailer) continue;
        const soonest = Math.min(...told.expiring.map((g) => g.expiresAtMs));
        const message = renderCreditExpiring({
          to: told.email,
          shopName: brand,
          expiringCents: told.expiring.reduce((a, g) => a + g.leftCents, 0),
          expiresAt: new Date(soonest),
          balanceCents: told.summary.balanceCents,
        });
        await deps.mailer.send(message).catch((err: unknown) => deps.log?.error({ err }, 'sending the credit-expiring mail failed'));
        mailed++;
      }
      return mailed;
    },

    async hasAccount(email: string): Promise<boolean> {
      return (await findAccount(db, ownerOf(email))) !== null;
    },

    async drainMail(): Promise<void> {
      await Promise.allSettled([...pendingMail]);
    },
  };
}

export type StoreCreditService = ReturnType<typeof createStoreCreditService>;
