import type { Order } from '../../../common/contracts/checkout';
import { displayPrice, formatUsd, parseMoney } from '../../../common/domain/money';
import { formatShopDate } from '../../../common/domain/ship-by';
import { BUYER_WINDOW_SENTENCE } from '../../../common/domain/order-address';
import { formatEditionNumbers } from '../../../common/domain/stock';
import { formatLineOptions } from '../../../common/domain/variant';
import { escapeHtml } from '../../lib/html';
import type { MailMessage } from '../../lib/mailer';

/** "Size: M · Color: Black": the words the cart, order page and admin use (common/domain/variant.ts). */
const variant = (item: Order['items'][number]): string => formatLineOptions(item);

function summaryRows(order: Order): Array<[string, string]> {
  const rows: Array<[string, string]> = [['Subtotal', displayPrice(order.subtotal)]];
  if (parseMoney(order.discountAmount) > 0)
    rows.push([`Discount (${order.discountCode})`, `-${displayPrice(order.discountAmount)}`]);
  rows.push(['Shipping', parseMoney(order.shipping) === 0 ? 'FREE' : displayPrice(order.shipping)]);
  if (parseMoney(order.tax) > 0) rows.push(['Tax', displayPrice(order.tax)]);
  rows.push(['Total', displayPrice(order.total)]);
  return rows;
}

/** Offline test gateway: the shop took no money and will not ship. */
export const TEST_ORDER_NOTE =
  "TEST ORDER: paid with the shop's offline test gateway. No money was taken and nothing will ship.";

/** The order page's link as every order mail words it (docs/product.md "Order page"). */
const ORDER_LINK_TEXT = 'View your order';
const orderLinkHtml = (url: string) =>
  `<p style="margin:24px 0"><a href="${escapeHtml(url)}" style="display:inline-block;background:#111;color:#fff;padding:12px 20px;text-decoration:none;font-weight:600">${ORDER_LINK_TEXT}</a></p>`;

/**
 * The order confirmation: every piece with its edition number ("No. 17 of 50"), the ship-by date and the
 * link to the order page (`orderUrl`, signed for this order alone).
 */
export function renderOrderConfirmation(order: Order, shopName: string, orderUrl?: string): MailMessage {
  const subject = `${order.isTest ? '[TEST] ' : ''}${shopName} order ${order.orderNumber} confirmed`;
  const address = [
    `${order.customerFirstName} ${order.customerLastName}`,
    order.shippingAddress,
    `${order.shippingCity}, ${order.shippingState} ${order.shippingZip}`,
    order.shippingCountry,
  ];
  const text = [
    `Thank you for your order, ${order.customerFirstName}!`,
    '',
    ...(order.isTest ? [TEST_ORDER_NOTE, ''] : []),
    `Order number: ${order.orderNumber}`,
    ...(order.shipBy ? [`Ships by: ${formatShopDate(order.shipBy)}`] : []),
    ...(orderUrl ? [`${ORDER_LINK_TEXT}: ${orderUrl}`, BUYER_WINDOW_SENTENCE] : []),
    '',
    ...order.items.flatMap((item) => [
      `${item.quantity} × ${item.productName}${variant(item) ? ` (${variant(item)})` : ''} — ${formatUsd(parseMoney(item.productPrice) * item.quantity)}`,
      `   ${formatEditionNumbers(item.editionNumbers, item.editionSize)}`,
    ]),
    '',
    ...summaryRows(order).map(([k, v]) => `${k}: ${v}`),
    '',
    'Shipping to:',
    ...address,
    '',
    'Every piece is made to order and never reproduced once sold out.',
    `— ${shopName}`,
  ].join('\n');

  const itemRows = order.items
    .map(
      (item) => `<tr>
  <td style="padding:8px 0;border-bottom:1px solid #eee">
    <strong>${escapeHtml(item.productName)}</strong>${variant(item) ? `<br><span style="color:#666">${escapeHtml(variant(item))}</span>` : ''}
    <br><span style="color:#b45309;font-weight:600">${escapeHtml(formatEditionNumbers(item.editionNumbers, item.editionSize))}</span>
  </td>
  <td style="padding:8px 0;border-bottom:1px solid #eee;text-align:center">${item.quantity}</td>
  <td style="padding:8px 0;border-bottom:1px solid #eee;text-align:right">${escapeHtml(formatUsd(parseMoney(item.productPrice) * item.quantity))}</td>
</tr>`,
    )
    .join('\n');
  const totals = summaryRows(order)
    .map(
      ([k, v]) =>
        `<tr><td colspan="2" style="padding:4px 0">${escapeHtml(k)}</td><td style="padding:4px 0;text-align:right">${escapeHtml(v)}</td></tr>`,
    )
    .join('\n');
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head>
<body style="font-family:Helvetica,Arial,sans-serif;color:#111;max-width:600px;margin:0 auto;padding:24px">
<h1 style="font-size:24px;text-transform:uppercase;letter-spacing:1px">${escapeHtml(shopName)}</h1>
<p>Thank you for your order, ${escapeHtml(order.customerFirstName)}!</p>
${order.isTest ? `<p style="border:2px solid #b45309;padding:8px;font-weight:600">${escapeHtml(TEST_ORDER_NOTE)}</p>` : ''}
<p>Order number: <strong>${escapeHtml(order.orderNumber)}</strong>${order.shipBy ? `<br>Ships by: <strong>${escapeHtml(formatShopDate(order.shipBy))}</strong>` : ''}</p>
${orderUrl ? `${orderLinkHtml(orderUrl)}
<p>${escapeHtml(BUYER_WINDOW_SENTENCE)}</p>` : ''}
<table style="width:100%;border-collapse:collapse">
<thead><tr><th style="text-align:left">Item</th><th>Qty</th><th style="text-align:right">Price</th></tr></thead>
<tbody>
${itemRows}
${totals}
</tbody></table>
<p style="margin-top:24px"><strong>Shipping to</strong><br>${address.map(escapeHtml).join('<br>')}</p>
<p style="color:#666">Every piece is made to order and never reproduced once sold out.</p>
</body></html>`;
  return { to: order.customerEmail, subject, text, html };
}

/** Sent when a payment arrived after the last piece was gone and was given back. */
export function renderRefundNotice(opts: {
  to: string;
  firstName: string;
  amountCents: number;
  productName: string | null;
  shopName: string;
  /** Why, when it was not a sell-out (a per-shopper limit: 'You can buy at most 2 of P per shopper.'). */
  reason?: string | null;
}): MailMessage {
  const what = opts.productName ? `${opts.productName} sold out` : 'your order could not be completed';
  const sorry = opts.reason
    ? `Sorry — ${opts.reason} So we did not take this order.`
    : `Sorry — ${what} before your payment went through, so we did not take your order.`;
  const subject = `${opts.shopName}: your payment was refunded`;
  const text = [
    `Hi ${opts.firstName},`,
    '',
    sorry,
    `Your payment of ${formatUsd(opts.amountCents)} has been refunded in full.`,
    '',
    `— ${opts.shopName}`,
  ].join('\n');
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head>
<body style="font-family:Helvetica,Arial,sans-serif;color:#111"><p>Hi ${escapeHtml(opts.firstName)},</p>
<p>${escapeHtml(sorry)}</p>
<p>Your payment of <strong>${escapeHtml(formatUsd(opts.amountCents))}</strong> has been refunded in full.</p>
<p>— ${escapeHtml(opts.shopName)}</p></body></html>`;
  return { to: opts.to, subject, text, html };
}

/**
 * Sent when the owner marks an order shipped: the tracking link when the carrier is known, else the number,
 * and the order page's link.
 */
export function renderShippedNotice(order: Order, shopName: string, orderUrl?: string): MailMessage {
  const subject = `${order.isTest ? '[TEST] ' : ''}${shopName} order ${order.orderNumber} has shipped`;
  const carrier = order.carrier && order.carrier !== 'other' ? order.carrier.toUpperCase() : null;
  const tracking = order.trackingNumber
    ? `Tracking number${carrier ? ` (${carrier})` : ''}: ${order.trackingNumber}`
    : null;
  const text = [
    `Hi ${order.customerFirstName},`,
    '',
    `Your order ${order.orderNumber} is on its way.`,
    ...(tracking ? ['', tracking] : []),
    ...(order.trackingUrl ? [`Track it: ${order.trackingUrl}`] : []),
    '',
    ...order.items.map((item) => `${item.quantity} × ${item.productName}${variant(item) ? ` (${variant(item)})` : ''}`),
    ...(orderUrl ? ['', `${ORDER_LINK_TEXT}: ${orderUrl}`] : []),
    '',
    `— ${shopName}`,
  ].join('\n');
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head>
<body style="font-family:Helvetica,Arial,sans-serif;color:#111;max-width:600px;margin:0 auto;padding:24px">
<p>Hi ${escapeHtml(order.customerFirstName)},</p>
<p>Your order <strong>${escapeHtml(order.orderNumber)}</strong> is on its way.</p>
${tracking ? `<p>${escapeHtml(tracking)}</p>` : ''}
${order.trackingUrl ? `<p><a href="${escapeHtml(order.trackingUrl)}">Track your package</a></p>` : ''}
<ul>${order.items.map((item) => `<li>${item.quantity} × ${escapeHtml(item.productName)}</li>`).join('')}</ul>
${orderUrl ? orderLinkHtml(orderUrl) : ''}
<p>— ${escapeHtml(shopName)}</p></body></html>`;
  return { to: order.customerEmail, subject, text, html };
}

/** "Find my order": the order page's link again, to the address the order was placed with. */
export function renderOrderLinkMail(order: Pick<Order, 'orderNumber' | 'customerEmail' | 'customerFirstName' | 'isTest'>, shopName: string, orderUrl: string): MailMessage {
  const subject = `${order.isTest ? '[TEST] ' : ''}${shopName}: the link to your order ${order.orderNumber}`;
  const text = [
    `Hi ${order.customerFirstName},`,
    '',
    `Here is the link to your order ${order.orderNumber}, as you asked:`,
    orderUrl,
    '',
    'If you did not ask for it, you can ignore this e-mail: the link opens only this order\'s page.',
    '',
    `— ${shopName}`,
  ].join('\n');
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head>
<body style="font-family:Helvetica,Arial,sans-serif;color:#111;max-width:600px;margin:0 auto;padding:24px">
<p>Hi ${escapeHtml(order.customerFirstName)},</p>
<p>Here is the link to your order <strong>${escapeHtml(order.orderNumber)}</strong>, as you asked:</p>
${orderLinkHtml(orderUrl)}
<p style="color:#666">If you did not ask for it, you can ignore this e-mail: the link opens only this order's page.</p>
<p>— ${escapeHtml(shopName)}</p></body></html>`;
  return { to: order.customerEmail, subject, text, html };
}

/**
 * After the sale (docs/product.md "After the sale: cancel and refund"): the owner cancelled the order (or some
 * of its lines) and gave the money back, or refunded part of it. Sent once the refund is through, with the
 * order page's link.
 */
export function renderAfterSaleNotice(
  order: Pick<Order, 'orderNumber' | 'customerEmail' | 'customerFirstName' | 'isTest'>,
  what: { kind: 'cancelled' | 'lines-cancelled' | 'refunded'; amountCents: number; lines: string[]; destination?: 'card' | 'credit' },
  shopName: string,
  orderUrl: string,
): MailMessage {
  const test = order.isTest ? '[TEST] ' : '';
  const subject =
    what.kind === 'cancelled'
      ? `${test}${shopName} order ${order.orderNumber} was cancelled and refunded`
      : what.kind === 'lines-cancelled'
        ? `${test}${shopName} order ${order.orderNumber}: part of it was cancelled and refunded`
        : `${test}${shopName} order ${order.orderNumber}: you were refunded`;
  const lead =
    what.kind === 'cancelled'
      ? `We cancelled your order ${order.orderNumber}.`
      : what.kind === 'lines-cancelled'
        ? `We cancelled part of your order ${order.orderNumber}: ${what.lines.join(', ')}.`
        : `We refunded part of your order ${order.orderNumber}.`;
  // Where the money went: store credit (a mail of its own gives the balance), or the card; a test order moved none.
  const money =
    what.destination === 'credit'
      ? `${formatUsd(what.amountCents)} was added to your store credit, valid 1 year; it is offered at checkout with this e-mail address.`
      : order.isTest
        ? `${formatUsd(what.amountCents)} would go back to the card; this was a test order paid with the shop's offline test gateway, so no money moved.`
        : `${formatUsd(what.amountCents)} is on its way back to your card; banks usually show it within 5–10 business days.`;
  const text = [`Hi ${order.customerFirstName},`, '', lead, money, '', `${ORDER_LINK_TEXT}: ${orderUrl}`, '', `— ${shopName}`].join('\n');
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head>
<body style="font-family:Helvetica,Arial,sans-serif;color:#111;max-width:600px;margin:0 auto;padding:24px">
<p>Hi ${escapeHtml(order.customerFirstName)},</p>
<p>${escapeHtml(lead)}</p>
<p>${escapeHtml(money)}</p>
${orderLinkHtml(orderUrl)}
<p>— ${escapeHtml(shopName)}</p></body></html>`;
  return { to: order.customerEmail, subject, text, html };
}

/** The buyer's delivery address was changed (by them from the order page, or by the shop): where it goes now. */
export function renderAddressChangedNotice(
  order: Pick<Order, 'orderNumber' | 'customerEmail' | 'customerFirstName' | 'isTest'>,
  address: { address: string; city: string; state: string; zip: string; country: string },
  shopName: string,
  orderUrl: string,
): MailMessage {
  const subject = `${order.isTest ? '[TEST] ' : ''}${shopName}: the delivery address of order ${order.orderNumber} changed`;
  const lines = [address.address, `${address.city}, ${address.state} ${address.zip}`, address.country];
  const text = [
    `Hi ${order.customerFirstName},`,
    '',
    `The delivery address of your order ${order.orderNumber} was changed. It now ships to:`,
    ...lines,
    '',
    `${ORDER_LINK_TEXT}: ${orderUrl}`,
    '',
    'If you did not make this change, please reply to this e-mail at once.',
    '',
    `— ${shopName}`,
  ].join('\n');
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head>
<body style="font-family:Helvetica,Arial,sans-serif;color:#111;max-width:600px;margin:0 auto;padding:24px">
<p>Hi ${escapeHtml(order.customerFirstName)},</p>
<p>The delivery address of your order <strong>${escapeHtml(order.orderNumber)}</strong> was changed. It now ships to:</p>
<p>${lines.map(escapeHtml).join('<br>')}</p>
${orderLinkHtml(orderUrl)}
<p style="color:#666">If you did not make this change, please reply to this e-mail at once.</p>
<p>— ${escapeHtml(shopName)}</p></body></html>`;
  return { to: order.customerEmail, subject, text, html };
}

/** The support line every order mail carries (the shipping page: "Support reply within 24 hours"). */
export const supportSentence = (supportEmail: string) =>
  `Questions about your order? Write to ${supportEmail}; we reply within 24 hours.`;

/**
 * Every order mail names support (SUPPORT_EMAIL): the line goes above the shop's signature in the text and
 * before the end of the HTML body.
 */
export function withSupport(message: MailMessage, supportEmail: string): MailMessage {
  const sentence = supportSentence(supportEmail);
  const sign = message.text.lastIndexOf('\n— ');
  const text =
    sign < 0 ? `${message.text}\n\n${sentence}` : `${message.text.slice(0, sign)}\n${sentence}\n${message.text.slice(sign)}`;
  const para = `<p style="color:#666">Questions about your order? Write to <a href="mailto:${escapeHtml(supportEmail)}">${escapeHtml(supportEmail)}</a>; we reply within 24 hours.</p>`;
  const end = message.html.lastIndexOf('</body>');
  const html = end < 0 ? `${message.html}${para}` : `${message.html.slice(0, end)}${para}\n${message.html.slice(end)}`;
  return { ...message, text, html };
}
