import type { Order } from '../../../common/contracts/checkout';
import { postalAddressLines } from '../../../common/domain/address-format';
import { displayPrice, formatUsd, parseMoney } from '../../../common/domain/money';
import { formatShopDate } from '../../../common/domain/ship-by';
import { BUYER_WINDOW_SENTENCE } from '../../../common/domain/order-address';
import { formatEditionNumbers } from '../../../common/domain/stock';
import { formatLineOptions } from '../../../common/domain/variant';
import type { MailMessage } from '../../lib/mailer';
import {
  absoluteUrl,
  brandedMail,
  fillSupportSlot,
  mailBrand,
  supportHtml,
  supportText,
  type MailItem,
  type ShopOrBrand,
} from '../../lib/mail-template';

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

/** The order page's link as every order mail words it (docs/product.md "Order page"): the mail's button. */
const ORDER_LINK_TEXT = 'View your order';
const orderButton = (url: string) => ({ url, label: ORDER_LINK_TEXT });

/** The pieces as the mail shows them: image, options and edition numbers ("No. 17 of 50"). */
const mailItems = (order: Pick<Order, 'items'>, shopUrl: string | undefined, priced: boolean): MailItem[] =>
  order.items.map((item) => ({
    name: item.productName,
    detail: variant(item) || undefined,
    edition: formatEditionNumbers(item.editionNumbers, item.editionSize),
    quantity: item.quantity,
    price: priced ? formatUsd(parseMoney(item.productPrice) * item.quantity) : undefined,
    imageUrl: absoluteUrl(shopUrl, item.productImage),
  }));

/**
 * The order confirmation: every piece with its image and edition number ("No. 17 of 50"), the ship-by date and
 * the link to the order page (`orderUrl`, signed for this order alone).
 */
export function renderOrderConfirmation(order: Order, shop: ShopOrBrand, orderUrl?: string): MailMessage {
  const brand = mailBrand(shop);
  const { shopName } = brand;
  const subject = `${order.isTest ? '[TEST] ' : ''}${shopName} order ${order.orderNumber} confirmed`;
  const address = postalAddressLines({ ...order, name: `${order.customerFirstName} ${order.customerLastName}` });
  const closing = 'Every piece is made to order and never reproduced once sold out.';
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
    closing,
    `— ${shopName}`,
  ].join('\n');
  return brandedMail(
    brand,
    { to: order.customerEmail, subject, text },
    {
      preview: `Order ${order.orderNumber}${order.shipBy ? `, ships by ${formatShopDate(order.shipBy)}` : ''}.`,
      heading: 'Order confirmed',
      lead: [
        `Thank you for your order, ${order.customerFirstName}!`,
        ...(order.isTest ? [{ note: TEST_ORDER_NOTE }] : []),
        {
          text: [
            'Order number: ',
            { mono: order.orderNumber },
            ...(order.shipBy ? ['\u00a0· Ships by: ', { strong: formatShopDate(order.shipBy) }] : []),
          ],
        },
      ],
      cta: orderUrl ? orderButton(orderUrl) : undefined,
      after: orderUrl ? [{ text: BUYER_WINDOW_SENTENCE, tone: 'muted' }] : [],
      items: mailItems(order, brand.shopUrl, true),
      totals: summaryRows(order),
      outro: [{ lines: address, label: 'Shipping to' }, { text: closing, tone: 'muted' }],
    },
  );
}

/** Sent when a payment arrived after the last piece was gone and was given back. */
export function renderRefundNotice(opts: {
  to: string;
  firstName: string;
  amountCents: number;
  productName: string | null;
  /** The shop's name, or its whole mail brand (server/lib/mail-template.ts). */
  shopName: ShopOrBrand;
  /** Why, when it was not a sell-out (a per-shopper limit: 'You can buy at most 2 of P per shopper.'). */
  reason?: string | null;
}): MailMessage {
  const brand = mailBrand(opts.shopName);
  const { shopName } = brand;
  const what = opts.productName ? `${opts.productName} sold out` : 'your order could not be completed';
  const sorry = opts.reason
    ? `Sorry — ${opts.reason} So we did not take this order.`
    : `Sorry — ${what} before your payment went through, so we did not take your order.`;
  const subject = `${shopName}: your payment was refunded`;
  const refunded = `Your payment of ${formatUsd(opts.amountCents)} has been refunded in full.`;
  const text = [`Hi ${opts.firstName},`, '', sorry, refunded, '', `— ${shopName}`].join('\n');
  return brandedMail(
    brand,
    { to: opts.to, subject, text },
    {
      heading: 'Your payment was refunded',
      lead: [
        `Hi ${opts.firstName},`,
        sorry,
        { text: ['Your payment of ', { strong: formatUsd(opts.amountCents) }, ' has been refunded in full.'] },
      ],
    },
  );
}

/**
 * Sent when the owner marks an order shipped: the tracking link when the carrier is known, else the number,
 * and the order page's link.
 */
export function renderShippedNotice(order: Order, shop: ShopOrBrand, orderUrl?: string): MailMessage {
  const brand = mailBrand(shop);
  const { shopName } = brand;
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
  return brandedMail(
    brand,
    { to: order.customerEmail, subject, text },
    {
      heading: 'Your order is on its way',
      lead: [
        `Hi ${order.customerFirstName},`,
        { text: ['Your order ', { mono: order.orderNumber }, ' is on its way.'] },
        ...(tracking ? [tracking] : []),
        ...(order.trackingUrl ? [{ text: [{ link: { url: order.trackingUrl, label: 'Track your package' } }] }] : []),
      ],
      cta: orderUrl ? orderButton(orderUrl) : undefined,
      items: mailItems(order, brand.shopUrl, false),
    },
  );
}

/** "Find my order": the order page's link again, to the address the order was placed with. */
export function renderOrderLinkMail(order: Pick<Order, 'orderNumber' | 'customerEmail' | 'customerFirstName' | 'isTest'>, shop: ShopOrBrand, orderUrl: string): MailMessage {
  const brand = mailBrand(shop);
  const { shopName } = brand;
  const subject = `${order.isTest ? '[TEST] ' : ''}${shopName}: the link to your order ${order.orderNumber}`;
  const ignore = "If you did not ask for it, you can ignore this e-mail: the link opens only this order's page.";
  const text = [
    `Hi ${order.customerFirstName},`,
    '',
    `Here is the link to your order ${order.orderNumber}, as you asked:`,
    orderUrl,
    '',
    ignore,
    '',
    `— ${shopName}`,
  ].join('\n');
  return brandedMail(
    brand,
    { to: order.customerEmail, subject, text },
    {
      heading: 'The link to your order',
      lead: [
        `Hi ${order.customerFirstName},`,
        { text: ['Here is the link to your order ', { mono: order.orderNumber }, ', as you asked:'] },
      ],
      cta: orderButton(orderUrl),
      after: [{ text: ignore, tone: 'muted' }],
    },
  );
}

/**
 * After the sale (docs/product.md "After the sale: cancel and refund"): the owner cancelled the order (or some
 * of its lines) and gave the money back, or refunded part of it. Sent once the refund is through, with the
 * order page's link.
 */
export function renderAfterSaleNotice(
  order: Pick<Order, 'orderNumber' | 'customerEmail' | 'customerFirstName' | 'isTest'>,
  what: { kind: 'cancelled' | 'lines-cancelled' | 'refunded'; amountCents: number; lines: string[]; destination?: 'card' | 'credit' },
  shop: ShopOrBrand,
  orderUrl: string,
): MailMessage {
  const brand = mailBrand(shop);
  const { shopName } = brand;
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
  return brandedMail(
    brand,
    { to: order.customerEmail, subject, text },
    {
      heading: what.kind === 'refunded' ? 'You were refunded' : 'Order cancelled and refunded',
      lead: [`Hi ${order.customerFirstName},`, lead, money],
      cta: orderButton(orderUrl),
    },
  );
}

/** The buyer's delivery address was changed (by them from the order page, or by the shop): where it goes now. */
export function renderAddressChangedNotice(
  order: Pick<Order, 'orderNumber' | 'customerEmail' | 'customerFirstName' | 'isTest'>,
  address: { address: string; city: string; state: string; zip: string; country: string },
  shop: ShopOrBrand,
  orderUrl: string,
): MailMessage {
  const brand = mailBrand(shop);
  const { shopName } = brand;
  const subject = `${order.isTest ? '[TEST] ' : ''}${shopName}: the delivery address of order ${order.orderNumber} changed`;
  const lines = postalAddressLines({
    shippingAddress: address.address,
    shippingCity: address.city,
    shippingState: address.state,
    shippingZip: address.zip,
    shippingCountry: address.country,
  });
  const notMe = 'If you did not make this change, please reply to this e-mail at once.';
  const text = [
    `Hi ${order.customerFirstName},`,
    '',
    `The delivery address of your order ${order.orderNumber} was changed. It now ships to:`,
    ...lines,
    '',
    `${ORDER_LINK_TEXT}: ${orderUrl}`,
    '',
    notMe,
    '',
    `— ${shopName}`,
  ].join('\n');
  return brandedMail(
    brand,
    { to: order.customerEmail, subject, text },
    {
      heading: 'Delivery address changed',
      lead: [
        `Hi ${order.customerFirstName},`,
        { text: ['The delivery address of your order ', { mono: order.orderNumber }, ' was changed. It now ships to:'] },
        { lines },
      ],
      cta: orderButton(orderUrl),
      after: [{ text: notMe, tone: 'muted' }],
    },
  );
}

/** The support line every order mail carries (the shipping page: "Support reply within 24 hours"). */
export const supportSentence = (supportEmail: string) => supportText(supportEmail, 'Questions about your order?');

/**
 * Every order mail names support (SUPPORT_EMAIL): the line goes above the shop's signature in the text and in
 * the footer of the HTML (the template's support slot).
 */
export function withSupport(message: MailMessage, supportEmail: string): MailMessage {
  const sentence = supportSentence(supportEmail);
  const sign = message.text.lastIndexOf('\n— ');
  const text =
    sign < 0 ? `${message.text}\n\n${sentence}` : `${message.text.slice(0, sign)}\n${sentence}\n${message.text.slice(sign)}`;
  const html = fillSupportSlot(message.html, supportHtml(supportEmail, 'Questions about your order?'));
  return { ...message, text, html };
}
