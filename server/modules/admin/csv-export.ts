import type { AdminOrder, NewsletterSignup } from '../../../common/contracts/admin';

type Cell = string | number | boolean | null | undefined;

/**
 * One CSV field (RFC 4180). Text a spreadsheet would run as a formula (= + - @, tab, CR first) gets
 * a leading apostrophe, so an e-mail like "=HYPERLINK(…)" stays text when the owner opens the file.
 */
export function csvCell(value: Cell): string {
  if (value === null || value === undefined) return '';
  let text = String(value);
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** A whole CSV document: CRLF line ends, with a BOM so spreadsheet apps read it as UTF-8. */
export function toCsv(header: readonly string[], rows: ReadonlyArray<ReadonlyArray<Cell>>): string {
  const lines = [header, ...rows].map((row) => row.map(csvCell).join(','));
  return `\uFEFF${lines.join('\r\n')}\r\n`;
}

const ORDER_HEADER = [
  'Order number',
  'Created at',
  'Status',
  'Email',
  'First name',
  'Last name',
  'Phone',
  'Address',
  'City',
  'State',
  'ZIP',
  'Country',
  'Shipping method',
  'Subtotal',
  'Discount code',
  'Discount',
  'Shipping',
  'Tax',
  'Total',
  'Payment id',
  'Items',
] as const;

/** "Name (M, Black) x2 [No. 3, 4 of 50]; …" */
function describeItems(order: AdminOrder): string {
  return order.items
    .map((item) => {
      const options = [item.selectedSize, item.selectedColor].filter(Boolean).join(', ');
      const editions = item.editionNumbers.length
        ? ` [No. ${item.editionNumbers.join(', ')} of ${item.editionSize}]`
        : '';
      return `${item.productName}${options ? ` (${options})` : ''} x${item.quantity} @ ${item.productPrice}${editions}`;
    })
    .join('; ');
}

export function ordersCsv(orders: readonly AdminOrder[]): string {
  return toCsv(
    ORDER_HEADER,
    orders.map((o) => [
      o.orderNumber,
      o.createdAt,
      o.status,
      o.customerEmail,
      o.customerFirstName,
      o.customerLastName,
      o.customerPhone,
      o.shippingAddress,
      o.shippingCity,
      o.shippingState,
      o.shippingZip,
      o.shippingCountry,
      o.shippingMethod,
      o.subtotal,
      o.discountCode,
      o.discountAmount,
      o.shipping,
      o.tax,
      o.total,
      o.stripePaymentIntentId,
      describeItems(o),
    ]),
  );
}

export function newsletterCsv(signups: readonly NewsletterSignup[]): string {
  return toCsv(
    ['Email', 'Signed up', 'Status'],
    signups.map((s) => [s.email, s.subscribedAt, 'Subscribed']),
  );
}
