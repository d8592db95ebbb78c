import { describe, expect, it } from 'vitest';
import {
  deliveryAddressKey,
  deliveryAddressKeyUsRules,
  foldText,
  mailboxKey,
  postalCodeKey,
  skeletonOf,
  streetKey,
} from './identity';

/** The twelve spellings one shopper used to buy 12 units under a limit of 2 (docs/security.md). */
const ONE_SHOPPER_VARIANTS: ReadonlyArray<{ email: string; line: string; zip: string; country: string }> = [
  { email: 'victim@gmail.com', line: '1 Main St', zip: '62701', country: 'US' },
  { email: 'victim+drop@gmail.com', line: '1 Main Street', zip: '62701', country: 'US' },
  { email: 'v.i.c.t.i.m@gmail.com', line: '1 Main Str', zip: '62701', country: 'US' },
  { email: 'victim@googlemail.com', line: '1 Main-Street', zip: '62701', country: 'US' },
  { email: 'Victim+2@GoogleMail.com', line: '1 main st.', zip: '62701-0001', country: 'us' },
  { email: 'v\u0456ctim@gmail.com', line: '1 Ma\u0456n St', zip: '62701', country: 'US' }, // Cyrillic і
  { email: 'vic\u200btim@gmail.com', line: '1 Main\u200b St', zip: '62701', country: 'US' }, // zero-width space
  { email: 'victim@gmail.com', line: '\uff11 Main St', zip: '\uff16\uff12\uff17\uff10\uff11', country: 'US' }, // full-width
  { email: ' VICTIM@gmail.com ', line: '  1   MAIN   ST  ', zip: ' 62701 ', country: 'U.S.' },
  { email: 'vi.ctim+x.y@gmail.com.', line: '1, Main St.', zip: '627010001', country: 'US' },
  { email: 'victim@GMAIL.COM', line: '1 Main St\u00ad', zip: '62701 0001', country: 'US' }, // soft hyphen
  { email: 'vict\u0456m@gmail.com', line: '1 M\u0430in Street', zip: '62701', country: 'US' }, // Cyrillic а
];

describe('identity folding', () => {
  it('folds the twelve spellings of one shopper to one mailbox and one delivery address', () => {
    const mailboxes = new Set(ONE_SHOPPER_VARIANTS.map((v) => mailboxKey(v.email)));
    const addresses = new Set(
      ONE_SHOPPER_VARIANTS.map((v) => deliveryAddressKey({ line: v.line, postalCode: v.zip, country: v.country })),
    );
    expect([...mailboxes]).toHaveLength(1);
    expect([...addresses]).toHaveLength(1);
  });

  it('drops the sub-address on any domain, and dots only where the provider ignores them', () => {
    expect(mailboxKey('ada+news@example.com')).toBe(mailboxKey('ada@example.com'));
    expect(mailboxKey('ada.lovelace@example.com')).not.toBe(mailboxKey('adalovelace@example.com'));
    expect(mailboxKey('ada.lovelace@gmail.com')).toBe(mailboxKey('adalovelace@googlemail.com'));
  });

  it('keeps distinct people distinct', () => {
    const people = [
      'ada@example.com',
      'grace@example.com',
      'ada@example.org',
      'victim2@gmail.com',
      'victim@yahoo.com',
      'alan@gmail.com',
      'alan.t@gmail.com',
    ].map(mailboxKey);
    expect(new Set(people).size).toBe(people.length);
    const addresses = [
      { line: '1 Main St', postalCode: '62701', country: 'US' },
      { line: '2 Main St', postalCode: '62701', country: 'US' },
      { line: '1 Main Ave', postalCode: '62701', country: 'US' },
      { line: '1 Main St', postalCode: '62702', country: 'US' },
      { line: '1 Main St', postalCode: '62701', country: 'CA' },
      { line: '1 Main St Apt 4', postalCode: '62701', country: 'US' },
      { line: '1 Main St Apt 5', postalCode: '62701', country: 'US' },
      { line: '10 Downing St', postalCode: 'SW1A 2AA', country: 'GB' },
      { line: '11 Downing St', postalCode: 'SW1A 2AB', country: 'GB' },
    ].map(deliveryAddressKey);
    expect(new Set(addresses).size).toBe(addresses.length);
  });

  it('maps street suffixes, directions and unit designators to one spelling', () => {
    expect(streetKey('12 North Oak Avenue, Apartment 4B')).toBe(streetKey('12 N Oak Ave #4B'));
    expect(streetKey('5 Elm Road Suite 100')).toBe(streetKey('5 Elm Rd Ste 100'));
    expect(streetKey('7 Pine Boulevard')).toBe(streetKey('7 Pine Blvd'));
    // A suffix word that starts the line is the street's name, not its suffix.
    expect(streetKey('Street Lane 1')).not.toBe(streetKey('St Lane 2'));
  });

  it('reads a ZIP+4 as its ZIP, and keeps other postal codes whole', () => {
    expect(postalCodeKey('62701-0001')).toBe(postalCodeKey('62701'));
    expect(postalCodeKey('SW1A 1AA')).toBe(postalCodeKey('sw1a1aa'));
    expect(postalCodeKey('SW1A 1AA')).not.toBe(postalCodeKey('SW1A 1AB'));
  });

  it('folds compatibility forms, invisible characters, accents and look-alike letters', () => {
    expect(foldText('\uff21\u200bb\u00e9')).toBe('abe');
    expect(foldText('p\u0430ypal')).toBe('paypal');
    expect(skeletonOf('l0')).toBe(skeletonOf('1o'));
  });
});

/** One London buyer, four spellings (docs/decisions/023-international-addresses.md). */
const ONE_LONDON_BUYER: ReadonlyArray<{ line: string; city: string; zip: string; country: string }> = [
  { line: '12 Brick Lane, London E1 6RF', city: 'London', zip: 'E1 6RF', country: 'GB' },
  { line: '12 brick ln, LONDON, e16rf', city: 'LONDON', zip: 'e16rf', country: 'GB' },
  { line: '12, Brick Lane', city: 'London', zip: 'E1  6RF', country: 'gb' },
  { line: '\uff11\uff12 Br\u0456ck L\u0430ne', city: '\uff2condon', zip: '\u04151 6RF', country: 'GB' }, // full-width, Cyrillic і а Е
];

describe('identity folding abroad', () => {
  const key = (a: { line: string; city?: string; zip: string; country: string }) =>
    deliveryAddressKey({ line: a.line, postalCode: a.zip, country: a.country, city: a.city });
  const oneKey = (list: ReadonlyArray<{ line: string; city?: string; zip: string; country: string }>) =>
    new Set(list.map(key)).size;

  it('folds one London doorstep spelled four ways to one key', () => {
    expect(oneKey(ONE_LONDON_BUYER)).toBe(1);
    // The US rules alone did not: the town and postcode in the line, the spaced postcode.
    expect(
      new Set(
        ONE_LONDON_BUYER.map((a) =>
          deliveryAddressKeyUsRules({ line: a.line, postalCode: a.zip, country: a.country }),
        ),
      ).size,
    ).toBeGreaterThan(1);
  });

  it("folds each language's street words and writes the postcode in its canonical form", () => {
    const fr = (line: string, zip = '75002') => ({ line, zip, country: 'FR', city: 'Paris' });
    expect(
      oneKey([fr('5 rue de la Paix'), fr('5, r. de la paix', '75 002'), fr('5 Rue la Paix, Paris')]),
    ).toBe(1);
    expect(oneKey([fr('12 avenue Foch'), fr('12 av. Foch')])).toBe(1);
    expect(oneKey([fr('3 Boulevard Haussmann'), fr('3 bd Haussmann')])).toBe(1);
    const de = (line: string) => ({ line, zip: '10119', country: 'DE', city: 'Berlin' });
    expect(oneKey([de('Torstraße 1'), de('Torstrasse 1'), de('Torstr. 1'), de('Tor Straße 1')])).toBe(1);
    const es = (line: string) => ({ line, zip: '28013', country: 'ES' });
    expect(oneKey([es('Calle Mayor 5'), es('C/ Mayor, 5'), es('c. mayor nº 5')])).toBe(1);
    const it_ = (line: string) => ({ line, zip: '00186', country: 'IT' });
    expect(oneKey([it_('Piazza Navona 1'), it_('P.za Navona 1')])).toBe(1);
    expect(oneKey([it_('Via del Corso 10'), it_('V. Corso 10')])).toBe(1);
    const nl = (line: string) => ({ line, zip: '1012 AB', country: 'NL' });
    expect(
      oneKey([nl('Kalverstraat 1'), nl('Kalverstr. 1'), { ...nl('Kalver straat 1'), zip: '1012ab' }]),
    ).toBe(1);
    const jp = (line: string, zip = '150-0002') => ({ line, zip, country: 'JP' });
    expect(oneKey([jp('Shibuya 1-2-3'), jp('Shibuya 1-chome 2-3', '1500002')])).toBe(1);
    expect(oneKey([jp('渋谷1丁目2番3号'), jp('渋谷１−２−３')])).toBe(1);
    const se = (line: string, zip: string) => ({ line, zip, country: 'SE', city: 'Stockholm' });
    expect(oneKey([se('Storgatan 1', '114 55'), se('Storg. 1', 'SE-11455')])).toBe(1);
  });

  it('keeps distinct doorsteps abroad distinct', () => {
    const keys = [
      { line: '12 Brick Lane', zip: 'E1 6RF', country: 'GB', city: 'London' },
      { line: '14 Brick Lane', zip: 'E1 6RF', country: 'GB', city: 'London' },
      { line: 'Flat 3, 12 Brick Lane', zip: 'E1 6RF', country: 'GB', city: 'London' },
      { line: '12 Brick Lane', zip: 'E1 6RL', country: 'GB', city: 'London' },
      { line: '12 London Road', zip: 'E1 6RF', country: 'GB', city: 'London' },
      { line: '12 Brick Road', zip: 'E1 6RF', country: 'GB', city: 'London' },
      { line: '5 rue de la Paix', zip: '75002', country: 'FR', city: 'Paris' },
      { line: '5 avenue de la Paix', zip: '75002', country: 'FR', city: 'Paris' },
      { line: 'Torstraße 1', zip: '10119', country: 'DE', city: 'Berlin' },
      { line: 'Torweg 1', zip: '10119', country: 'DE', city: 'Berlin' },
      { line: '12 Brick Lane', zip: 'E1 6RF', country: 'IE', city: 'London' },
    ].map(key);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('keeps the US key as it was: stored claims are hashes of it', () => {
    const us = { line: '1 Main St, Springfield', postalCode: '62701', country: 'US', city: 'Springfield' };
    expect(deliveryAddressKey(us)).toBe(deliveryAddressKeyUsRules(us));
    expect(deliveryAddressKey(us)).toBe([streetKey(us.line), postalCodeKey(us.postalCode), 'us'].join('|'));
  });
});
