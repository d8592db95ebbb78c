import { formatUsd } from '../../../common/domain/money';
import { formatShopDate } from '../../../common/domain/ship-by';
import { escapeHtml } from '../../lib/html';
import type { MailMessage } from '../../lib/mailer';

/**
 * "Credit granted" (docs/product.md "Store credit"): what was granted, the balance now and when the soonest
 * of it runs out, in the order mails' style (server/modules/orders/order-email.ts).
 */
export function renderCreditGranted(opts: {
  to: string;
  shopName: string;
  amountCents: number;
  balanceCents: number;
  nextExpiry: { amountCents: number; expiresAt: Date } | null;
  orderNumber: string | null;
}): MailMessage {
  const { shopName } = opts;
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
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head>
<body style="font-family:Helvetica,Arial,sans-serif;color:#111;max-width:600px;margin:0 auto;padding:24px">
<p>${escapeHtml(lead)}</p>
<p><strong>${escapeHtml(balance)}</strong></p>
<p>${escapeHtml(expiry)}</p>
<p>${escapeHtml(use)}</p>
<p>— ${escapeHtml(shopName)}</p></body></html>`;
  return { to: opts.to, subject, text, html };
}

/**
 * "Expires in 30 days" (docs/product.md "Store credit"): what of the balance runs out and when, so the buyer can
 * spend it first; sent once per grant.
 */
export function renderCreditExpiring(opts: {
  to: string;
  shopName: string;
  expiringCents: number;
  expiresAt: Date;
  balanceCents: number;
}): MailMessage {
  const { shopName } = opts;
  const date = formatShopDate(opts.expiresAt.toISOString().slice(0, 10));
  const subject = `${shopName}: ${formatUsd(opts.expiringCents)} of your store credit expires on ${date}`;
  const lead = `${formatUsd(opts.expiringCents)} of your store credit expires on ${date}.`;
  const balance = `Your store credit balance is ${formatUsd(opts.balanceCents)}.`;
  const use = 'It is offered at checkout when you pay with this e-mail address.';
  const text = [lead, balance, use, '', `— ${shopName}`].join('\n');
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head>
<body style="font-family:Helvetica,Arial,sans-serif;color:#111;max-width:600px;margin:0 auto;padding:24px">
<p><strong>${escapeHtml(lead)}</strong></p>
<p>${escapeHtml(balance)}</p>
<p>${escapeHtml(use)}</p>
<p>— ${escapeHtml(shopName)}</p></body></html>`;
  return { to: opts.to, subject, text, html };
}
