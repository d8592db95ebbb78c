import crypto from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Db, Tx } from '../../db/client';
import type { NewsletterSubscription } from '../../../common/contracts/newsletter';
import { mailboxKey } from '../../../common/domain/identity';
import { WELCOME_PERCENT } from '../../../common/domain/welcome-code';
import type { Mailer } from '../../lib/mailer';
import type { KeyService } from '../../lib/keys';
import { buildAlreadySubscribedMail, buildWelcomeMail } from './newsletter.mail';
import {
  findByMailboxKey,
  insertSubscription,
  listSubscriptionRows,
  listUnkeyedSubscriptions,
  setMailboxKey,
  type SubscriptionRow,
} from './newsletter.repository';

/** Thrown inside the signup's transaction to roll its new code back when the mailbox is on the list already. */
class AlreadySubscribed extends Error {}

function toSubscription(row: SubscriptionRow): NewsletterSubscription {
  return { id: row.id, email: row.email, subscribedAt: row.subscribedAt.toISOString() };
}

/** What the newsletter needs of discounts: a one-use welcome code, made in the signup's transaction. */
export interface WelcomeCodes {
  createWelcomeCode(tx: Tx): Promise<string>;
}

export function createNewsletterService(deps: {
  db: Db;
  discounts: WelcomeCodes;
  mailer: Mailer;
  shopName: string;
  publicUrl?: string;
  /** SUPPORT_EMAIL: the mails' footer names it (server/lib/mail-template.ts). */
  supportEmail?: string;
  log: FastifyBaseLogger;
  /** The shop's key service: keys the mailbox hashes, so the column never holds a guessable e-mail hash. */
  keys: KeyService;
}) {
  const { db, discounts, mailer, log } = deps;
  const hashKey = deps.keys.derive('newsletter mailboxes');
  /** A keyed hash of the folded mailbox (ADR 013): every spelling of one inbox has one. */
  const keyOf = (email: string) => crypto.createHmac('sha256', hashKey).update(mailboxKey(email)).digest('base64url');

  /**
   * Rows stored before folding get their key from the e-mail they keep in clear, oldest first, so the
   * first spelling of a mailbox holds it and later spellings of that mailbox count as subscribed.
   */
  async function keyOldRows(): Promise<void> {
    for (;;) {
      const rows = await listUnkeyedSubscriptions(db, 500);
      let keyed = 0;
      for (const row of rows) {
        const done = await setMailboxKey(db, row.id, keyOf(row.email)).catch((err: unknown) => {
          // Another instance keyed the same mailbox at the same moment: that row holds it.
          if ((err as { code?: string }).code === '23505') return false;
          throw err;
        });
        if (done) keyed++;
      }
      if (rows.length < 500 || keyed === 0) return;
    }
  }
  let oldRowsKeyed: Promise<void> | null = null;

  /** The mailbox on the list is told, at the address it signed up with (never a second code). */
  async function tellAlreadySubscribed(email: string, key: string): Promise<void> {
    const held = await findByMailboxKey(db, key);
    try {
      await mailer.send(buildAlreadySubscribedMail({ to: held?.email ?? email, shopName: deps.shopName, shopUrl: deps.publicUrl, supportEmail: deps.supportEmail }));
    } catch (err) {
      log.error({ err }, 'newsletter already-subscribed e-mail failed');
    }
  }

  return {
    /**
     * Stores a (trimmed, lower-cased) address once per mailbox (its folded key: `+tag`, Gmail dots,
     * look-alike letters are one inbox) and gives it its own single-use code, in one transaction; a repeat
     * in any spelling creates nothing and gets a short "already on the list" mail at the stored address
     * instead of a code. The caller answers both alike (docs/security.md, "Who is on the list"); the e-mail
     * goes out after the commit.
     */
    async subscribe(email: string): Promise<{ created: boolean }> {
      oldRowsKeyed ??= keyOldRows().catch((err: unknown) => {
        oldRowsKeyed = null;
        throw err;
      });
      await oldRowsKeyed;
      const key = keyOf(email);
      let made: { row: SubscriptionRow; code: string };
      try {
        made = await db.transaction(async (tx) => {
          const code = await discounts.createWelcomeCode(tx);
          const row = await insertSubscription(tx, email, key, code);
          // Throwing rolls the code back: a repeat never gets a second one.
          if (!row) throw new AlreadySubscribed();
          return { row, code };
        });
      } catch (err) {
        if (!(err instanceof AlreadySubscribed)) throw err;
        await tellAlreadySubscribed(email, key);
        return { created: false };
      }
      const { code } = made;
      try {
        await mailer.send(
          buildWelcomeMail({
            to: email,
            code,
            percent: WELCOME_PERCENT,
            shopName: deps.shopName,
            shopUrl: deps.publicUrl,
            supportEmail: deps.supportEmail,
          }),
        );
      } catch (err) {
        // The signup and code stand; the owner can resend from the admin list.
        log.error({ err }, 'newsletter welcome e-mail failed');
      }
      return { created: true };
    },

    async listSubscriptions(): Promise<NewsletterSubscription[]> {
      return (await listSubscriptionRows(db)).map(toSubscription);
    },
  };
}

export type NewsletterService = ReturnType<typeof createNewsletterService>;
