import { describe, expect, it } from 'vitest';
import { deliveryAddressKey, foldText, mailboxKey, postalCodeKey, skeletonOf, streetKey } from './identity';

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
