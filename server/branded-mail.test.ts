import { describe, expect, test } from 'vitest';
import type { Order } from '../common/contracts/checkout';
import type { ReturnRecord } from '../common/contracts/returns';
import type { MailMessage } from './lib/mailer';
import { buildReleaseMail, buildRestockMail, buildRoomOpenMail } from './modules/alerts/alerts.mail';
import { renderDrawResult, renderEntryConfirmation } from './modules/draws/draw-mail';
import { buildTurnMail } from './modules/drops/turn-mail';
import { buildAlreadySubscribedMail, buildWelcomeMail } from './modules/newsletter/newsletter.mail';
import {
  renderAddressChangedNotice,
  renderAfterSaleNotice,
  renderOrderConfirmation,
  renderOrderLinkMail,
  renderRefundNotice,
  renderShippedNotice,
  withSupport,
} from './modules/orders/order-email';
import { renderReturnMail } from './modules/orders/returns.mail';
import { renderCreditExpiring, renderCreditGranted } from './modules/store-credit/store-credit-email';

// Every mail the shop sends is the one template (ADR 024): the shop's mark, the footer's support line and
// refund-policy link, the order page's button where there is an order, the pieces with their images and
// edition numbers where there are pieces, and a plain-text part with no HTML in it.

const SHOP = 'https://shop.example';
const SUPPORT = 'help@shop.example';
const brand = { shopName: 'FIFTY', shopUrl: SHOP, supportEmail: SUPPORT };
const orderBrand = { shopName: 'FIFTY', shopUrl: SHOP };
const orderUrl = `${SHOP}/orders/FIFTY-7K3Q-9XZ2?key=abc`;
const image = '/uploads/seed/static-tee.webp';

const order: Order = {
  id: '00000000-0000-4000-8000-000000000001',
  orderNumber: 'FIFTY-7K3Q-9XZ2',
  stripePaymentIntentId: 'pi_1',
  customerEmail: 'ada@example.com',
  customerFirstName: 'Ada',
  customerLastName: 'Lovelace',
  customerPhone: null,
  shippingAddress: '10 Downing St',
  shippingCity: 'London',
  shippingState: '',
  shippingZip: 'sw1a2aa',
  shippingCountry: 'GB',
  shippingMethod: 'international',
  subtotal: '90.00',
  discountCode: null,
  discountAmount: '0.00',
  tax: '0.00',
  shipping: '25.00',
  total: '115.00',
  status: 'pending',
  isTest: false,
  trackingNumber: '1Z999',
  carrier: 'ups',
  items: [
    {
      productName: 'Static Tee',
      productPrice: '45.00',
      quantity: 1,
      selectedSize: 'M',
      selectedColor: 'Black',
      productImage: image,
      editionNumbers: [17],
      editionSize: 50,
    },
  ],
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
} as Order;

const ret: ReturnRecord = {
  id: 'r1',
  status: 'approved',
  reason: 'Too big',
  lines: [{ itemId: 'i1', productName: 'Static Tee', quantity: 1, editionNumbers: [17] }],
  credit: '0.00',
  shipBackBy: '2026-01-20T00:00:00.000Z',
  note: null,
  createdAt: '2026-01-05T00:00:00.000Z',
};
const piece = {
  name: 'Static Tee',
  detail: 'Size: M · Color: Black',
  edition: 'No. 17 of 50',
  quantity: 1,
  imageUrl: `${SHOP}${image}`,
};

const alert = {
  to: 'ada@example.com',
  productName: 'Static Tee',
  shopName: brand,
  productImageUrl: `${SHOP}${image}`,
  productUrl: `${SHOP}/product/p1`,
  unsubscribeUrl: `${SHOP}/api/alerts/unsubscribe?t=x`,
};

/** What a kind of mail has beyond the template: an order (its button), pieces (their images and edition numbers). */
const kinds: Array<[string, MailMessage, { order?: boolean; image?: boolean; edition?: boolean }]> = [
  [
    'order confirmation',
    withSupport(renderOrderConfirmation(order, orderBrand, orderUrl), SUPPORT),
    { order: true, image: true, edition: true },
  ],
  [
    'shipped',
    withSupport(renderShippedNotice(order, orderBrand, orderUrl), SUPPORT),
    { order: true, image: true, edition: true },
  ],
  ['find my order', withSupport(renderOrderLinkMail(order, orderBrand, orderUrl), SUPPORT), { order: true }],
  [
    'after the sale',
    withSupport(
      renderAfterSaleNotice(order, { kind: 'cancelled', amountCents: 4500, lines: [] }, orderBrand, orderUrl),
      SUPPORT,
    ),
    { order: true },
  ],
  [
    'address changed',
    withSupport(
      renderAddressChangedNotice(
        order,
        { address: '1 Rue de Rivoli', city: 'Paris', state: '', zip: '75001', country: 'FR' },
        orderBrand,
        orderUrl,
      ),
      SUPPORT,
    ),
    { order: true },
  ],
  [
    'late payment refunded',
    withSupport(
      renderRefundNotice({
        to: 'a@example.com',
        firstName: 'Ada',
        amountCents: 4500,
        productName: 'Static Tee',
        shopName: orderBrand,
      }),
      SUPPORT,
    ),
    {},
  ],
  [
    'return approved',
    withSupport(
      renderReturnMail('approved', {
        order,
        ret,
        shopName: orderBrand,
        supportEmail: SUPPORT,
        orderUrl,
        timeZone: 'UTC',
        pieces: [piece],
      }),
      SUPPORT,
    ),
    { order: true, image: true, edition: true },
  ],
  [
    'store credit granted',
    renderCreditGranted({
      to: 'a@example.com',
      shopName: brand,
      amountCents: 4500,
      balanceCents: 4500,
      nextExpiry: null,
      orderNumber: 'FIFTY-7K3Q-9XZ2',
    }),
    {},
  ],
  [
    'store credit expiring',
    renderCreditExpiring({
      to: 'a@example.com',
      shopName: brand,
      expiringCents: 4500,
      expiresAt: new Date('2027-01-01'),
      balanceCents: 4500,
    }),
    {},
  ],
  [
    'draw entry',
    renderEntryConfirmation({
      to: 'a@example.com',
      firstName: 'Ada',
      productName: 'Static Tee',
      amountCents: 5399,
      closesAt: new Date('2026-02-01T12:00:00Z'),
      url: `${SHOP}/draw-entry/t`,
      shopName: brand,
      productImageUrl: `${SHOP}${image}`,
    }),
    { image: true },
  ],
  [
    'draw result',
    renderDrawResult({
      to: 'a@example.com',
      firstName: 'Ada',
      productName: 'Static Tee',
      kind: 'won',
      size: 'M',
      amountCents: 5399,
      orderNumber: 'FIFTY-7K3Q-9XZ2',
      url: `${SHOP}/draws/d`,
      nextDropsUrl: `${SHOP}/drops`,
      shopName: brand,
      productImageUrl: `${SHOP}${image}`,
    }),
    { image: true },
  ],
  [
    'your turn',
    buildTurnMail({
      to: 'a@example.com',
      productName: 'Static Tee',
      productImageUrl: `${SHOP}${image}`,
      brand,
      url: `${SHOP}/api/drops/p1/turn?token=t`,
      passEndsAt: new Date('2026-02-01T12:05:00Z'),
      graceMinutes: 10,
    }),
    { image: true },
  ],
  ['drop released', buildReleaseMail({ ...alert, editionSize: 50 }), { image: true }],
  [
    'waiting room open',
    buildRoomOpenMail({
      ...alert,
      editionSize: 50,
      releaseAt: new Date('2026-02-01T12:00:00Z'),
      roomOpensAt: new Date('2026-02-01T11:50:00Z'),
      calendarUrl: `${SHOP}/api/products/p1/calendar.ics`,
      calendar: 'BEGIN:VCALENDAR',
    }),
    { image: true },
  ],
  [
    'piece back',
    buildRestockMail({ ...alert, reservedUntil: new Date('2026-02-01T12:30:00Z'), minutes: 30, size: 'M' }),
    { image: true },
  ],
  [
    'newsletter welcome',
    buildWelcomeMail({
      to: 'a@example.com',
      code: 'WELCOME-ABC',
      percent: 10,
      shopName: 'FIFTY',
      shopUrl: SHOP,
      supportEmail: SUPPORT,
    }),
    {},
  ],
  [
    'already subscribed',
    buildAlreadySubscribedMail({
      to: 'a@example.com',
      shopName: 'FIFTY',
      shopUrl: SHOP,
      supportEmail: SUPPORT,
    }),
    {},
  ],
];

describe('every mail is the one branded template', () => {
  test.each(kinds)('%s', (_kind, mail, has) => {
    // The mark (PNG: mail clients show no SVG) and the shop's name.
    expect(mail.html).toContain(`<img src="${SHOP}/mail-mark.png"`);
    expect(mail.html).toContain('>FIFTY</td>');
    // The footer: support once, returns, the shop.
    expect(
      mail.html.split(`<a href="mailto:${SUPPORT}">${SUPPORT}</a>; we reply within 24 hours.`),
    ).toHaveLength(2);
    expect(mail.html).toContain(`href="${SHOP}/refund-policy"`);
    expect(mail.text).toContain(`${SHOP}/refund-policy`);
    expect(mail.text).toContain(`Write to ${SUPPORT}; we reply within 24 hours.`);
    if (has.order) {
      expect(mail.html).toMatch(
        new RegExp(`<a\\s+href="${orderUrl.replace(/[.?]/g, '\\$&')}"[^>]*>\\s*View your order\\s*</a>`),
      );
      expect(mail.text).toContain(orderUrl);
    }
    if (has.image) expect(mail.html).toContain(`<img src="${SHOP}${image}"`);
    if (has.edition) expect(mail.html).toContain('No. 17 of 50');
    // A plain-text part, with no HTML in it.
    expect(mail.text.length).toBeGreaterThan(0);
    expect(mail.text).not.toMatch(/<\/?[a-z][^>]*>|&(amp|lt|gt|quot|#39);/i);
    expect(mail.html).not.toMatch(/%%[A-Z_]+%%/);
  });

  test('the confirmation prints the address in its country’s format with the country’s name', () => {
    const mail = renderOrderConfirmation(order, orderBrand, orderUrl);
    for (const body of [mail.text, mail.html]) {
      expect(body).toContain('London');
      expect(body).toContain('SW1A 2AA');
      expect(body).toContain('United Kingdom');
    }
  });
});
