import { describe, expect, test } from 'vitest';
import type { Order } from '../../../common/contracts/checkout';
import { renderOrderConfirmation, renderRefundNotice } from './order-email';

const order: Order = {
  id: '00000000-0000-4000-8000-000000000001',
  orderNumber: 'FIFTY-7K3Q-9XZ2',
  stripePaymentIntentId: 'pi_1',
  customerEmail: 'ada@example.com',
  customerFirstName: 'Ada <script>',
  customerLastName: 'Lovelace',
  customerPhone: null,
  shippingAddress: '1 Analytical Way',
  shippingCity: 'Springfield',
  shippingState: 'IL',
  shippingZip: '62701',
  shippingCountry: 'US',
  shippingMethod: 'standard',
  subtotal: '90.00',
  discountCode: 'FALL15',
  discountAmount: '13.50',
  tax: '0.00',
  shipping: '0.00',
  total: '76.50',
  status: 'pending',
  isTest: false,
  items: [
    {
      productName: 'Static Tee',
      productPrice: '45.00',
      quantity: 2,
      selectedSize: 'M',
      selectedColor: 'Black',
      productImage: null,
      editionNumbers: [17, 18],
      editionSize: 50,
    },
  ],
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
};

describe('order confirmation e-mail', () => {
  test('text and HTML carry the order number, items, edition numbers and totals', () => {
    const mail = renderOrderConfirmation(order, 'FIFTY');
    expect(mail.to).toBe('ada@example.com');
    expect(mail.subject).toBe('FIFTY order FIFTY-7K3Q-9XZ2 confirmed');
    for (const body of [mail.text, mail.html]) {
      expect(body).toContain('FIFTY-7K3Q-9XZ2');
      expect(body).toContain('Static Tee');
      expect(body).toContain('Nos. 17, 18 of 50');
      // What to make, in the words of the cart, order page and admin.
      expect(body).toContain('Size: M · Color: Black');
      expect(body).toContain('$90.00');
      expect(body).toContain('-$13.50');
      expect(body).toContain('FREE');
      expect(body).toContain('$76.50');
    }
    expect(mail.text).not.toContain('Tax');
  });

  test('escapes what the shopper typed in the HTML', () => {
    const mail = renderOrderConfirmation(order, 'FIFTY');
    expect(mail.html).not.toContain('<script>');
    expect(mail.html).toContain('Ada &lt;script&gt;');
  });

  test('refund notice says what happened and how much came back', () => {
    const mail = renderRefundNotice({
      to: 'a@b.c',
      firstName: 'Ada',
      amountCents: 5399,
      productName: 'Drop Tee',
      shopName: 'FIFTY',
    });
    expect(mail.text).toContain('Drop Tee sold out');
    expect(mail.text).toContain('$53.99 has been refunded');
    expect(mail.html).toContain('$53.99');
  });
});
