import fs from 'node:fs';
import { postalAddressLines } from '../../common/domain/address-format';
import { describe, expect, test } from 'vitest';
import { compileMailLayout, generatedModule, layoutOut } from '../../scripts/build-mail-template.mjs';
import {
  brandedMail,
  fillSupportSlot,
  renderMailHtml,
  SUPPORT_SLOT,
  supportHtml,
} from './mail-template';

const brand = { shopName: 'FIFTY', shopUrl: 'https://shop.example/', supportEmail: 'help@shop.example' };

describe('the one mail template', () => {
  test('the generated layout is what mail-layout.mjml compiles to (run node scripts/build-mail-template.mjs)', async () => {
    expect(fs.readFileSync(layoutOut, 'utf8')).toBe(await generatedModule(await compileMailLayout()));
  }, 30_000);

  test('the mark, the wordmark, the button, the pieces and the footer with support and returns', () => {
    const html = renderMailHtml(brand, {
      subject: 'FIFTY order A-1 confirmed',
      heading: 'Order confirmed',
      lead: ['Thank you for your order, Ada!'],
      cta: { url: 'https://shop.example/orders/A-1?key=k&x=1', label: 'View your order' },
      items: [
        {
          name: 'Static Tee',
          detail: 'Size: M',
          edition: 'No. 17 of 50',
          quantity: 1,
          price: '$45.00',
          imageUrl: 'https://shop.example/uploads/tee.webp',
        },
      ],
      totals: [['Total', '$45.00']],
    });
    expect(html).toContain('<img src="https://shop.example/mail-mark.png"');
    expect(html).toContain('>FIFTY</td>');
    expect(html).toMatch(
      /<a\s+href="https:\/\/shop\.example\/orders\/A-1\?key=k&amp;x=1"[^>]*>\s*View your order\s*<\/a>/,
    );
    expect(html).toContain('<img src="https://shop.example/uploads/tee.webp"');
    expect(html).toContain('No. 17 of 50');
    expect(html).toContain(
      '<a href="mailto:help@shop.example">help@shop.example</a>; we reply within 24 hours.',
    );
    expect(html).toContain('href="https://shop.example/refund-policy"');
    expect(html).toContain('href="https://shop.example/"');
    // Every slot filled, and no part's markers left behind.
    expect(html).not.toMatch(/%%[A-Z_]+%%/);
    expect(html).not.toMatch(/<!--\/?(mark|heading|cta|items)-->/);
  });

  test('a mail without a button, pieces or the shop address leaves those parts out', () => {
    const html = renderMailHtml('FIFTY', { subject: 'Hi', lead: ['Hello.'] });
    expect(html).not.toContain('<img');
    expect(html).not.toContain('View your order');
    expect(html).not.toContain('refund-policy');
    expect(html).not.toContain('line-height:21px;table-layout:auto');
    expect(html).toContain(SUPPORT_SLOT);
    expect(html).not.toMatch(/%%[A-Z_]+%%/);
  });

  test('every value is escaped, and text that looks like a slot stays text', () => {
    const html = renderMailHtml(
      { ...brand, shopName: 'F<i>FTY' },
      {
        subject: '<b>s</b>',
        heading: '"h"',
        lead: ['Ada <script>alert(1)</script> %%CTA_URL%%'],
        items: [{ name: '<img src=x>', imageUrl: 'https://x.example/a.png?a=1&b="2"' }],
      },
    );
    expect(html).not.toContain('<script>');
    expect(html).not.toContain('<img src=x>');
    expect(html).not.toContain('<b>s</b>');
    expect(html).toContain('F&lt;i&gt;FTY');
    expect(html).toContain('Ada &lt;script&gt;alert(1)&lt;/script&gt; %%CTA_URL%%');
    expect(html).toContain('src="https://x.example/a.png?a=1&amp;b=&quot;2&quot;"');
  });

  test('the support slot is filled once, in the footer', () => {
    const html = fillSupportSlot(
      renderMailHtml('FIFTY', { subject: 's', lead: ['x'] }),
      supportHtml('a@b.example'),
    );
    expect(html.split('mailto:a@b.example')).toHaveLength(2);
    expect(html).not.toContain(SUPPORT_SLOT);
    expect(html.indexOf('mailto:')).toBeLessThan(html.lastIndexOf('</body>'));
  });

  test('the text part gets the support, returns and shop lines after the signature', () => {
    const mail = brandedMail(
      brand,
      { to: 'a@b.example', subject: 's', text: 'Hello.\n\n— FIFTY' },
      { lead: ['Hello.'] },
    );
    expect(mail.text.split('\n')).toEqual([
      'Hello.',
      '',
      '— FIFTY',
      '',
      'Questions? Write to help@shop.example; we reply within 24 hours.',
      'Returns and refunds: https://shop.example/refund-policy',
      'FIFTY: https://shop.example/',
    ]);
  });

  test('addresses in the country’s own format with its name, in the casing the buyer typed', () => {
    const base = { shippingState: '', shippingCountry: 'GB' };
    expect(
      postalAddressLines({
        ...base,
        name: 'Ada Lovelace',
        shippingAddress: '10 Downing St',
        shippingCity: 'London',
        shippingZip: 'sw1a2aa',
      }),
    ).toEqual(['Ada Lovelace', '10 Downing St', 'London', 'SW1A 2AA', 'United Kingdom']);
    expect(
      postalAddressLines({
        shippingAddress: '7 Compiler Court',
        shippingCity: 'Springfield',
        shippingState: 'IL',
        shippingZip: '62701',
        shippingCountry: 'US',
      }),
    ).toEqual(['7 Compiler Court', 'Springfield, IL 62701', 'United States']);
  });
});
