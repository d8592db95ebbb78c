import { describe, expect, test } from 'vitest';
import { renderAfterSaleNotice, renderOrderLinkMail, renderRefundNotice, withSupport } from './order-email';

// Every order mail names support (SUPPORT_EMAIL; the shipping page's "Support reply within 24 hours").
describe('the support line of order mails', () => {
  const order = { orderNumber: 'FIFTY-7K3Q-9XZ2', customerEmail: 'ada@example.com', customerFirstName: 'Ada', isTest: false };
  const url = 'https://shop.example/orders/FIFTY-7K3Q-9XZ2?key=abc';

  test('above the signature in the text, before the end of the HTML body, escaped', () => {
    const mail = withSupport(renderOrderLinkMail(order, 'FIFTY', url), 'help+<x>@shop.example');
    const lines = mail.text.split('\n');
    const at = lines.findIndex((l) => l.includes('help+<x>@shop.example'));
    expect(lines[at]).toBe('Questions about your order? Write to help+<x>@shop.example; we reply within 24 hours.');
    expect(lines.slice(at + 1)).toEqual(['', '— FIFTY']);
    expect(mail.html).toContain('<a href="mailto:help+&lt;x&gt;@shop.example">help+&lt;x&gt;@shop.example</a>');
    expect(mail.html).not.toContain('<x>');
    expect(mail.html.indexOf('mailto:')).toBeLessThan(mail.html.lastIndexOf('</body>'));
    expect(mail.to).toBe('ada@example.com');
  });

  test('each kind of order mail carries it once', () => {
    const kinds = [
      renderOrderLinkMail(order, 'FIFTY', url),
      renderAfterSaleNotice(order, { kind: 'cancelled', amountCents: 4500, lines: [] }, 'FIFTY', url),
      renderRefundNotice({ to: 'ada@example.com', firstName: 'Ada', amountCents: 4500, productName: 'Tee', shopName: 'FIFTY' }),
    ];
    for (const plain of kinds) {
      expect(plain.text).not.toContain('support@fifty.local');
      const mail = withSupport(plain, 'support@fifty.local');
      expect(mail.text.split('support@fifty.local')).toHaveLength(2);
      expect(mail.html.split('mailto:support@fifty.local')).toHaveLength(2);
    }
  });
});
