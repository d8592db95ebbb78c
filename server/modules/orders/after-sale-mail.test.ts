import { describe, expect, test } from 'vitest';
import { renderAfterSaleNotice } from './order-email';

const order = { orderNumber: 'FIFTY-AB12-CD34', customerEmail: 'ada@example.com', customerFirstName: 'Ada <b>', isTest: false };
const url = 'https://shop.example/orders/FIFTY-AB12-CD34?key=abc&x=1';

describe('after-sale mails (docs/product.md §2.14)', () => {
  test('cancelled: the amount back to the card and the order page link, escaped in HTML', () => {
    const mail = renderAfterSaleNotice(order, { kind: 'cancelled', amountCents: 5399, lines: [] }, 'FIFTY', url);
    expect(mail.to).toBe('ada@example.com');
    expect(mail.subject).toBe('FIFTY order FIFTY-AB12-CD34 was cancelled and refunded');
    expect(mail.text).toContain('$53.99 is on its way back to your card');
    expect(mail.text).toContain(`View your order: ${url}`);
    expect(mail.html).toContain('href="https://shop.example/orders/FIFTY-AB12-CD34?key=abc&amp;x=1"');
    expect(mail.html).toContain('Ada &lt;b&gt;');
    expect(mail.html).not.toContain('Ada <b>');
  });

  test('lines cancelled and goodwill refunds say what happened; a test order is marked', () => {
    const lines = renderAfterSaleNotice(order, { kind: 'lines-cancelled', amountCents: 4500, lines: ['Drop Tee'] }, 'FIFTY', url);
    expect(lines.subject).toBe('FIFTY order FIFTY-AB12-CD34: part of it was cancelled and refunded');
    expect(lines.text).toContain('We cancelled part of your order FIFTY-AB12-CD34: Drop Tee.');
    const goodwill = renderAfterSaleNotice({ ...order, isTest: true }, { kind: 'refunded', amountCents: 1000, lines: [] }, 'FIFTY', url);
    expect(goodwill.subject).toBe('[TEST] FIFTY order FIFTY-AB12-CD34: you were refunded');
    // A test order moved no money: the mail says so instead of promising a bank refund.
    expect(goodwill.text).toContain("this was a test order paid with the shop's offline test gateway, so no money moved");
    expect(goodwill.text).not.toContain('on its way back to your card');
  });

  test('a refund as store credit says so, never "back to your card"', () => {
    const credit = renderAfterSaleNotice(order, { kind: 'cancelled', amountCents: 5399, lines: [], destination: 'credit' }, 'FIFTY', url);
    expect(credit.text).toContain('$53.99 was added to your store credit, valid 1 year');
    expect(credit.text).not.toContain('your card');
  });
});
