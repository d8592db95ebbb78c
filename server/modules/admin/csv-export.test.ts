import { describe, expect, test } from 'vitest';
import { csvCell, newsletterCsv, toCsv } from './csv-export';

describe('csv export', () => {
  test('quotes commas, quotes and line breaks', () => {
    expect(csvCell('plain')).toBe('plain');
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('line\nbreak')).toBe('"line\nbreak"');
    expect(csvCell(null)).toBe('');
    expect(csvCell(12)).toBe('12');
  });

  test('neutralises spreadsheet formulas', () => {
    expect(csvCell('=HYPERLINK("http://x","y")')).toBe(`"'=HYPERLINK(""http://x"",""y"")"`);
    expect(csvCell('+1-555')).toBe("'+1-555");
    expect(csvCell('-2+3')).toBe("'-2+3");
    expect(csvCell('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvCell('\t=1')).toBe("'\t=1");
    expect(csvCell('a=b')).toBe('a=b');
  });

  test('documents have a BOM, a header and CRLF line ends', () => {
    expect(toCsv(['A', 'B'], [['1', '2']])).toBe('\uFEFFA,B\r\n1,2\r\n');
    const csv = newsletterCsv([
      { id: 'x', email: '=cmd@x.com', subscribedAt: '2025-01-01T00:00:00.000Z', subscribed_at: '' },
    ]);
    expect(csv).toBe("\uFEFFEmail,Signed up,Status\r\n'=cmd@x.com,2025-01-01T00:00:00.000Z,Subscribed\r\n");
  });
});
