import { formatUsd } from '../../../common/domain/money';
import { formatShopDate } from '../../../common/domain/ship-by';
import type { MailMessage } from '../../lib/mailer';
import { brandedMail, mailBrand, type ShopOrBrand } from '../../lib/mail-template';

/** Where the credit is spent: the shop (when its address is known). */
const shopButton = (shopUrl: string | undefined) => (shopUrl ? { url: `${shopUrl.replace(/\/+$/, '')}/`, label: 'Shop now' } : undefined);

/**
 * "Credit granted" (docs/product.md "Store credit"): what was granted, the balance now and when the soonest
 * of it runs out, in the shop's one mail template (server/lib/mail-template.ts).
 */
export function renderCreditGranted(opts: {
  to: string;
  /** The shop's name, or its whole mail brand (server/lib/mail-template.ts). */
  shopName: ShopOrBrand;
  amountCents: number;
  balanceCents: number;
  nextExpiry: { amountCents: number; expiresAt: Date } | null;
  orderNumber: string | null;
}): MailMessage {
  const brand = mailBrand(opts.shopName);
  const { shopName } = brand;
  const subject = `${shopName}: ${formatUsd(opts.amountCents)} store credit added`;
  const lead = opts.orderNumber
    ? `We added ${formatUsd(opts.amountCents)} of store credit for order ${opts.orderNumber}.`
    : `We added ${formatUsd(opts.amountCents)} of store credit to your account.`;
  const balance = `Your store credit balance is ${formatUsd(opts.balanceCents)}.`;
  const expiry = opts.nextExpiry
    ? `${formatUsd(opts.nextExpiry.amountCents)} of it is valid until ${formatShopDate(opts.nextExpiry.expiresAt.toISOString().slice(0, 10))}; each credit is valid 1 year.`
    : 'Each credit is valid 1 year.';
  const use = 'It is offered at checkout when you pay with this e-mail address.';
  const text = [lead, balance, expiry, use, '', `— ${shopName}`].join('\n');
  return brandedMail(
    brand,
    { to: opts.to, subject, text },
    { heading: 'Store credit added', lead: [lead, { text: balance, tone: 'strong' }, expiry, use], cta: shopButton(brand.shopUrl) },
  );
}

/**
 * "Expires in 30 days" (docs/product.md "Store credit"): what of the balance runs out and when, so the buyer can
 * spend it first; sent once per grant.
 */
export function renderCreditExpiring(opts: {
  to: string;
  /** The shop's name, or its whole mail brand (server/lib/mail-template.ts). */
  shopName: ShopOrBrand;
  expiringCents: number;
  expiresAt: Date;
  balanceCents: number;
}): MailMessage {
  const brand = mailBrand(opts.shopName);
  const { shopName } = brand;
  const date = formatShopDate(opts.expiresAt.toISOString().slice(0, 10));
  const subject = `${shopName}: ${formatUsd(opts.expiringCents)} of your store credit expires on ${date}`;
  const lead = `${formatUsd(opts.expiringCents)} of your store credit expires on ${date}.`;
  const balance = `Your store credit balance is ${formatUsd(opts.balanceCents)}.`;
  const use = 'It is offered at checkout when you pay with this e-mail address.';
  const text = [lead, balance, use, '', `— ${shopName}`].join('\n');
  return brandedMail(
    brand,
    { to: opts.to, subject, text },
    { heading: 'Your store credit expires soon', lead: [{ text: lead, tone: 'strong' }, balance, use], cta: shopButton(brand.shopUrl) },
  );
}
