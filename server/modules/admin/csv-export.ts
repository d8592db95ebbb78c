import type { AdminOrder, NewsletterSignup, NotifySignupList } from '../../../common/contracts/admin';
import { countryName, formatPostalAddress } from '../../../common/domain/address-format';
import { isDisputeOpen } from '../../../common/domain/after-sale';
import { needsSignature, SIGNATURE_REQUIRED_LABEL } from '../../../common/domain/fulfilment-promises';
import { parseMoney } from '../../../common/domain/money';
import { formatEditionNumbers } from '../../../common/domain/stock';
import { formatLineOptionsShort } from '../../../common/domain/variant';

type Cell = string | number | boolean | null | undefined;

/**
 * What a spreadsheet would run as a formula: = + - @ (and their full-width forms), also after leading
 * spaces, or a tab / CR / LF first.
 */
const FORMULA_START = /^(?:\s*[=+\-@\uFF1D\uFF0B\uFF0D\uFF20]|[\t\r\n])/;

/**
 * Text a spreadsheet would run as a formula gets a leading apostrophe, so an e-mail like
 * "=HYPERLINK(…)" stays text when the owner opens the file. The check runs on every `;`-separated part
 * too: a spreadsheet set to `;` as its separator splits "a;=cmd" into a second cell that starts with =.
 */
function neutralise(text: string): string {
  return text
    .split(';')
    .map((part) => (FORMULA_START.test(part) ? `'${part}` : part))
    .join(';');
}

/** One CSV field (RFC 4180): always quoted, so no value can change the shape of the file. */
export function csvCell(value: Cell): string {
  if (value === null || value === undefined) return '""';
  const text = typeof value === 'string' ? neutralise(value) : String(value);
  return `"${text.replace(/"/g, '""')}"`;
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
  'Test order',
  'Carrier',
  'Tracking number',
  'Signature',
  // Appended, so the columns before keep their places: 'Country' stays the code to filter by; these are
  // for reading and for labels (the country's own format, capitals where its post asks for them).
  'Country name',
  'Postal address',
] as const;

/** The shipping page's promise (common/domain/fulfilment-promises.ts): over $200 the parcel ships signed for. */
const signatureOf = (order: Pick<AdminOrder, 'total'>) => needsSignature(parseMoney(order.total));

/** "Name (M, Black) x2 [Nos. 3, 4 of 50]; …" (the shared edition label) */
function describeItems(order: AdminOrder): string {
  return order.items
    .map((item) => {
      const options = formatLineOptionsShort(item);
      const editions = item.editionNumbers.length
        ? ` [${formatEditionNumbers(item.editionNumbers, item.editionSize)}]`
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
      o.isTest ? 'TEST: not charged' : '',
      o.carrier,
      o.trackingNumber,
      signatureOf(o) ? SIGNATURE_REQUIRED_LABEL : '',
      countryName(o.shippingCountry),
      // One line per order (a row per line keeps grep, wc and line-based imports honest): ' / ' between lines.
      formatPostalAddress({ ...o, name: `${o.customerFirstName} ${o.customerLastName}` }).join(' / '),
    ]),
  );
}

export function newsletterCsv(signups: readonly NewsletterSignup[]): string {
  return toCsv(
    ['Email', 'Signed up', 'Status'],
    signups.map((s) => [s.email, s.subscribedAt, 'Subscribed']),
  );
}

/** One product's Notify-me signups (the owner's demand list). */
export function notifySignupsCsv(signups: NotifySignupList): string {
  return toCsv(
    ['Email', 'Kind', 'Signed up', 'Notified'],
    signups.map((s) => [s.email, s.kind, s.createdAt, s.notifiedAt ?? '']),
  );
}

/** Orders whose pieces are paid for and still to be packed: the pick list's orders. */
export const PICK_STATUSES = ['confirmed', 'processing'] as const;

/**
 * The pick list (GET /api/admin/pick-list.csv): per product (a drop), per size and colour, the pieces to
 * pick from paid orders not yet shipped, sizes in the product's run order where it has one (else by name),
 * and the orders they go to. One row per product, size and colour.
 */
export function pickListCsv(orders: readonly AdminOrder[], sizeOrder: (productName: string) => readonly string[] = () => []): string {
  const rows = new Map<string, { product: string; size: string; colour: string; pieces: number; orders: string[]; signed: string[] }>();
  for (const order of orders) {
    if (!(PICK_STATUSES as readonly string[]).includes(order.status)) continue;
    // A card dispute holds an unshipped order until it closes; a cancelled line's pieces are back on the shelf (ADR 021).
    if (order.disputes?.some((d) => isDisputeOpen(d.status))) continue;
    for (const item of order.items) {
      if (item.cancelled) continue;
      const size = item.selectedSize ?? '';
      const colour = item.selectedColor ?? '';
      const key = `${item.productName}\u0000${size.toLowerCase()}\u0000${colour.toLowerCase()}`;
      const row = rows.get(key) ?? { product: item.productName, size, colour, pieces: 0, orders: [], signed: [] };
      row.pieces += item.quantity;
      if (!row.orders.includes(order.orderNumber)) {
        row.orders.push(order.orderNumber);
        if (signatureOf(order)) row.signed.push(order.orderNumber);
      }
      rows.set(key, row);
    }
  }
  const rank = (product: string, size: string) => {
    const i = sizeOrder(product).findIndex((s) => s.toLowerCase() === size.toLowerCase());
    return i < 0 ? Number.MAX_SAFE_INTEGER : i;
  };
  const sorted = [...rows.values()].sort(
    (a, b) =>
      a.product.localeCompare(b.product) ||
      rank(a.product, a.size) - rank(b.product, b.size) ||
      a.size.localeCompare(b.size) ||
      a.colour.localeCompare(b.colour),
  );
  return toCsv(
    ['Product', 'Size', 'Colour', 'Pieces to pick', 'Orders', `${SIGNATURE_REQUIRED_LABEL} (orders)`],
    sorted.map((r) => [r.product, r.size, r.colour, r.pieces, r.orders.join(' '), r.signed.join(' ')]),
  );
}
