import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client';
import type { NewsletterSubscription } from '../../../common/contracts/newsletter';
import { WELCOME_PERCENT } from '../../../common/domain/welcome-code';
import { conflict } from '../../plugins/http-error';
import type { DiscountsService } from '../discounts/discounts.service';
import type { Mailer } from '../mail/mail.service';
import { buildWelcomeMail } from './newsletter.mail';
import {
  insertSubscription,
  listSubscriptionRows,
  type SubscriptionRow,
} from './newsletter.repository';

export const ALREADY_SUBSCRIBED = 'This email is already subscribed to our newsletter.';

function toSubscription(row: SubscriptionRow): NewsletterSubscription {
  return { id: row.id, email: row.email, subscribedAt: row.subscribedAt.toISOString() };
}

export function createNewsletterService(deps: {
  db: Db;
  discounts: DiscountsService;
  mailer: Mailer;
  shopName: string;
  publicUrl?: string;
  log: FastifyBaseLogger;
}) {
  const { db, discounts, mailer, log } = deps;

  return {
    /**
     * Stores a (trimmed, lower-cased) address once and gives it its own single-use code, in one
     * transaction; a repeat is a 409 and creates nothing. The e-mail goes out after the commit.
     */
    async subscribe(email: string): Promise<NewsletterSubscription> {
      const { row, code } = await db.transaction(async (tx) => {
        const code = await discounts.createWelcomeCode(tx);
        const row = await insertSubscription(tx, email, code);
        // Throwing rolls the code back: a repeat never gets a second one.
        if (!row) throw conflict(ALREADY_SUBSCRIBED);
        return { row, code };
      });
      try {
        await mailer.send(
          buildWelcomeMail({
            to: email,
            code,
            percent: WELCOME_PERCENT,
            shopName: deps.shopName,
            shopUrl: deps.publicUrl,
          }),
        );
      } catch (err) {
        // The signup and code stand; the owner can resend from the admin list.
        log.error({ err }, 'newsletter welcome e-mail failed');
      }
      return toSubscription(row);
    },

    async listSubscriptions(): Promise<NewsletterSubscription[]> {
      return (await listSubscriptionRows(db)).map(toSubscription);
    },
  };
}

export type NewsletterService = ReturnType<typeof createNewsletterService>;
