import type { ReturnRecord } from '../../../common/contracts/returns';
import { formatUsd, parseMoney } from '../../../common/domain/money';
import { formatShopDate, shopClock } from '../../../common/domain/ship-by';
import type { MailMessage } from '../../lib/mailer';
import { brandedMail, mailBrand, type MailItem, type ShopOrBrand } from '../../lib/mail-template';
import type { OrderRow } from './orders.repository';

export type ReturnMailKind = 'approved' | 'declined' | 'accepted' | 'rejected' | 'reminder' | 'expired';

/** The ship-back deadline as the buyer reads it: the shop's calendar date. */
export const deadlineDate = (iso: string, timeZone: string) => formatShopDate(shopClock(new Date(iso), timeZone).date);

/**
 * The buyer's mails of a return (docs/product.md "Returns"). No return address is configured: the approval
 * asks the buyer to reply for the return label (the reply goes to the support address every order mail names).
 */
export function renderReturnMail(
  kind: ReturnMailKind,
  ctx: { order: Pick<OrderRow, 'orderNumber' | 'customerEmail' | 'customerFirstName' | 'isTest'>; ret: ReturnRecord; shopName: ShopOrBrand; supportEmail: string; orderUrl: string; timeZone: string; pieces?: MailItem[] },
): MailMessage {
  const { order, ret } = ctx;
  const brand = mailBrand(ctx.shopName);
  const { shopName } = brand;
  const pieces = ret.lines.map((l) => `${l.quantity} × ${l.productName}`).join(', ');
  const by = ret.shipBackBy ? deadlineDate(ret.shipBackBy, ctx.timeZone) : '';
  const test = order.isTest ? '[TEST] ' : '';
  const [subject, ...body]: string[] = (() => {
    switch (kind) {
      case 'approved':
        return [
          `${test}${shopName} order ${order.orderNumber}: your return is approved`,
          `We approved your return of ${pieces}.`,
          `Please reply to this e-mail (${ctx.supportEmail}) for the return label, and ship the pieces back by ${by}: unworn, unwashed, with their tags.`,
          'Once they arrive and are inspected, their price comes back to you as store credit (shipping is not refunded).',
        ];
      case 'declined':
        return [`${test}${shopName} order ${order.orderNumber}: your return was declined`, `We could not approve your return of ${pieces}.`, ...(ret.note ? [ret.note] : [])];
      case 'accepted':
        return [
          `${test}${shopName} order ${order.orderNumber}: your return was accepted`,
          `Your return of ${pieces} arrived and was accepted. ${formatUsd(parseMoney(ret.credit))} is now your store credit.`,
        ];
      case 'rejected':
        return [
          `${test}${shopName} order ${order.orderNumber}: your return could not be accepted`,
          `Your return of ${pieces} arrived, but it did not meet the policy (unworn, unwashed, with tags), so no store credit was granted.`,
          ...(ret.note ? [ret.note] : []),
        ];
      case 'reminder':
        return [`${test}${shopName} order ${order.orderNumber}: ship your return by ${by}`, `A reminder: your approved return of ${pieces} must be shipped back by ${by}.`];
      case 'expired':
        return [
          `${test}${shopName} order ${order.orderNumber}: your return expired`,
          `Your approved return of ${pieces} was not shipped back within the time given, so it has expired.`,
        ];
    }
  })();
  const text = [`Hi ${order.customerFirstName},`, '', ...body, '', `View your order: ${ctx.orderUrl}`, '', `— ${shopName}`].join('\n');
  const headings: Record<ReturnMailKind, string> = {
    approved: 'Your return is approved',
    declined: 'Your return was declined',
    accepted: 'Your return was accepted',
    rejected: 'Your return could not be accepted',
    reminder: 'Ship your return',
    expired: 'Your return expired',
  };
  return brandedMail(
    brand,
    { to: order.customerEmail, subject: subject!, text },
    {
      heading: headings[kind],
      lead: [`Hi ${order.customerFirstName},`, ...body],
      cta: { url: ctx.orderUrl, label: 'View your order' },
      items: ctx.pieces,
    },
  );
}
