import { describe, expect, it } from 'vitest';
import {
  addressFormFor,
  countryName,
  firstAddressError,
  formatPostalAddress,
  guessCountry,
  isKnownCountry,
  normaliseAddress,
  normalisePostcode,
  SHIPPING_COUNTRIES,
  validateAddressFields,
} from './address-format';
import { ADDRESS_DATA } from './address-data.generated';

const labels = (country: string) => addressFormFor(country).fields.map((f) => [f.label, f.required]);

describe('the countries we ship to', () => {
  it('lists the United States first, then every other country by English name', () => {
    expect(SHIPPING_COUNTRIES[0]).toEqual({ code: 'US', name: 'United States' });
    const rest = SHIPPING_COUNTRIES.slice(1).map((c) => c.name);
    expect(rest).toEqual([...rest].sort((a, b) => a.localeCompare(b, 'en')));
    for (const code of ['CA', 'GB', 'IE', 'AU', 'NZ', 'DE', 'FR', 'NL', 'JP', 'KR', 'SG', 'MX', 'BR'])
      expect(isKnownCountry(code), code).toBe(true);
    expect(countryName('fr')).toBe('France');
    expect(isKnownCountry('ZZ')).toBe(false);
    expect(isKnownCountry('constructor')).toBe(false);
  });

  it('keeps the generated data small enough for the checkout chunk', () => {
    expect(JSON.stringify(ADDRESS_DATA).length).toBeLessThan(20_000);
  });
});

describe('addressFormFor', () => {
  it("keeps the spec's US labels, with the states as a select", () => {
    const us = addressFormFor('US');
    expect(us.fields.map((f) => f.label)).toEqual(['Address', 'City', 'State', 'ZIP Code']);
    expect(us.fields.every((f) => f.required)).toBe(true);
    expect(us.fields[2]!.options).toContainEqual({ value: 'CA', label: 'California' });
    expect(us.fields.map((f) => f.autoComplete)).toEqual([
      'street-address',
      'address-level2',
      'address-level1',
      'postal-code',
    ]);
  });

  it("follows each country's own fields, labels and order", () => {
    expect(labels('GB')).toEqual([
      ['Address', true],
      ['Town/City', true],
      ['Postcode', true],
    ]);
    expect(addressFormFor('GB').fields[2]!.example).toBe('EC1Y 8SY');
    expect(labels('FR')).toEqual([
      ['Address', true],
      ['Postal code', true],
      ['City', true],
    ]);
    expect(labels('DE')).toEqual(labels('FR'));
    expect(labels('JP')).toEqual([
      ['Address', true],
      ['Prefecture', true],
      ['Postal code', true],
    ]);
    expect(addressFormFor('JP').fields[1]!.options).toContainEqual({ value: 'Tokyo', label: 'Tokyo' });
    expect(labels('IE')).toEqual([
      ['Address', true],
      ['City', true],
      ['County', false],
      ['Eircode', false],
    ]);
    expect(labels('CA')).toEqual([
      ['Address', true],
      ['City', true],
      ['Province', true],
      ['Postal code', true],
    ]);
  });

  it('gives an unknown country the US form', () => {
    expect(addressFormFor('ZZ').country).toBe('US');
  });
});

describe('validateAddressFields', () => {
  const paris = {
    shippingAddress: '5 rue Oberkampf',
    shippingCity: 'Paris',
    shippingZip: '75011',
    shippingCountry: 'FR',
  };

  it('accepts a valid address of each country', () => {
    expect(validateAddressFields(paris)).toEqual({});
    expect(
      validateAddressFields({
        shippingAddress: '12 Brick Lane',
        shippingCity: 'London',
        shippingZip: 'e16rf',
        shippingCountry: 'GB',
      }),
    ).toEqual({});
    expect(
      validateAddressFields({
        shippingAddress: '1-2-3 Shibuya',
        shippingState: 'tokyo',
        shippingZip: '1500002',
        shippingCountry: 'JP',
      }),
    ).toEqual({});
    expect(
      validateAddressFields({
        shippingAddress: '1 Main St',
        shippingCity: 'Springfield',
        shippingState: 'IL',
        shippingZip: '62701-0001',
        shippingCountry: 'US',
      }),
    ).toEqual({});
    expect(
      validateAddressFields({ shippingAddress: '1 Main St', shippingCity: 'Dublin', shippingCountry: 'IE' }),
    ).toEqual({});
    expect(
      validateAddressFields({
        shippingAddress: '1 Rue',
        shippingCity: 'Montréal',
        shippingState: 'QC',
        shippingZip: 'h3z2y7',
        shippingCountry: 'CA',
      }),
    ).toEqual({});
    expect(
      validateAddressFields({
        shippingAddress: 'Torstraße 1',
        shippingCity: 'Berlin',
        shippingZip: '10119',
        shippingCountry: 'DE',
      }),
    ).toEqual({});
  });

  it("refuses another country's postcode with a readable message", () => {
    expect(validateAddressFields({ ...paris, shippingZip: 'E1 6RF' })).toEqual({
      shippingZip: 'This postal code does not look like a French postal code',
    });
    expect(
      validateAddressFields({
        shippingAddress: '12 Brick Lane',
        shippingCity: 'London',
        shippingZip: '75011',
        shippingCountry: 'GB',
      }),
    ).toEqual({ shippingZip: 'This postcode does not look like a UK postcode' });
    expect(
      validateAddressFields({
        shippingAddress: '1 Rue',
        shippingCity: 'Toronto',
        shippingState: 'ON',
        shippingZip: '90210',
        shippingCountry: 'CA',
      }).shippingZip,
    ).toBe('This postal code does not look like a Canadian postal code');
    expect(
      validateAddressFields({
        shippingAddress: '1 St',
        shippingCity: 'Berlin',
        shippingZip: '1011',
        shippingCountry: 'DE',
      }).shippingZip,
    ).toBe('This postal code does not look like a German postal code');
    expect(
      validateAddressFields({
        shippingAddress: '1 St',
        shippingCity: 'Dublin',
        shippingZip: '12',
        shippingCountry: 'IE',
      }),
    ).toEqual({
      shippingZip: 'This Eircode does not look like an Irish Eircode',
    });
    expect(
      validateAddressFields({
        shippingAddress: '1 Soi',
        shippingCity: 'Bangkok',
        shippingZip: '1',
        shippingCountry: 'TH',
      }).shippingZip,
    ).toBe('This postal code does not look like a valid postal code for Thailand');
  });

  it("keeps the spec's US messages and refuses a Paris address sent as US", () => {
    expect(validateAddressFields({ shippingCountry: 'US' })).toEqual({
      shippingAddress: 'Shipping address is required',
      shippingCity: 'City is required',
      shippingState: 'State is required',
      shippingZip: 'ZIP code is required',
    });
    const errors = validateAddressFields({ ...paris, shippingState: 'IDF', shippingCountry: 'US' });
    expect(errors).toEqual({ shippingState: 'Please choose a state from the list' });
    expect(
      validateAddressFields({ ...paris, shippingState: 'NY', shippingZip: '7501', shippingCountry: 'US' }),
    ).toEqual({
      shippingZip: 'This ZIP code does not look like a US ZIP code',
    });
  });

  it("asks for what the country's address needs", () => {
    expect(
      validateAddressFields({
        shippingAddress: '1-2-3 Shibuya',
        shippingZip: '150-0002',
        shippingCountry: 'JP',
      }),
    ).toEqual({
      shippingState: 'Prefecture is required',
    });
    expect(validateAddressFields({ shippingAddress: '12 Brick Lane', shippingCountry: 'GB' })).toEqual({
      shippingCity: 'Town/City is required',
      shippingZip: 'Postcode is required',
    });
  });

  it('refuses a country we do not ship to', () => {
    const errors = validateAddressFields({ ...paris, shippingCountry: 'ZZ' });
    expect(errors).toEqual({ shippingCountry: 'Please choose a country we ship to' });
    expect(firstAddressError(errors)).toBe('Please choose a country we ship to');
  });
});

describe('normalisePostcode and normaliseAddress', () => {
  it("writes the postcode in the country's canonical form", () => {
    expect(normalisePostcode('GB', 'ec1y8sy')).toBe('EC1Y 8SY');
    expect(normalisePostcode('GB', ' e1  6rf ')).toBe('E1 6RF');
    expect(normalisePostcode('JP', '1540023')).toBe('154-0023');
    expect(normalisePostcode('US', '221621010')).toBe('22162-1010');
    expect(normalisePostcode('CA', 'h3z2y7')).toBe('H3Z 2Y7');
    expect(normalisePostcode('FR', '75 011')).toBe('75011');
    expect(normalisePostcode('NL', '1234ab')).toBe('1234 AB');
    expect(normalisePostcode('SE', 'SE-114 55')).toBe('11455');
    expect(normalisePostcode('US', '６２７０１')).toBe('62701');
  });

  it('stores a listed sub-region by its value and drops fields the country has not', () => {
    expect(
      normaliseAddress({
        shippingAddress: ' 5 rue X ',
        shippingCity: 'Paris',
        shippingState: 'IDF',
        shippingZip: '75 011',
        shippingCountry: 'fr',
      }),
    ).toEqual({
      shippingAddress: '5 rue X',
      shippingCity: 'Paris',
      shippingState: '',
      shippingZip: '75011',
      shippingCountry: 'FR',
    });
    expect(
      normaliseAddress({
        shippingAddress: '1 Main St',
        shippingCity: 'Springfield',
        shippingState: 'illinois',
        shippingZip: '62701',
        shippingCountry: 'US',
      }).shippingState,
    ).toBe('IL');
  });
});

describe('formatPostalAddress', () => {
  it("writes the country's own format with the country's name last", () => {
    expect(
      formatPostalAddress({
        name: 'Ann Lee',
        shippingAddress: '12 Brick Lane',
        shippingCity: 'London',
        shippingState: '',
        shippingZip: 'e16rf',
        shippingCountry: 'GB',
      }),
    ).toEqual(['Ann Lee', '12 Brick Lane', 'LONDON', 'E1 6RF', 'United Kingdom']);
    expect(
      formatPostalAddress({
        shippingAddress: '5 rue Oberkampf',
        shippingCity: 'Paris',
        shippingState: '',
        shippingZip: '75011',
        shippingCountry: 'FR',
      }),
    ).toEqual(['5 rue Oberkampf', '75011 PARIS', 'France']);
    expect(
      formatPostalAddress({
        shippingAddress: '1 Main St',
        shippingCity: 'Springfield',
        shippingState: 'IL',
        shippingZip: '62701',
        shippingCountry: 'US',
      }),
    ).toEqual(['1 Main St', 'SPRINGFIELD, IL 62701', 'United States']);
    expect(
      formatPostalAddress({
        shippingAddress: '1-2-3 Shibuya',
        shippingCity: '',
        shippingState: 'Tokyo',
        shippingZip: '1500002',
        shippingCountry: 'JP',
      }),
    ).toEqual(['1-2-3 Shibuya, TOKYO', '150-0002', 'Japan']);
    expect(
      formatPostalAddress({
        shippingAddress: '渋谷1-2-3',
        shippingCity: '',
        shippingState: '東京都',
        shippingZip: '150-0002',
        shippingCountry: 'JP',
      }),
    ).toEqual(['〒150-0002', '東京都', '渋谷1-2-3', 'Japan']);
  });
});

describe('guessCountry', () => {
  it("takes the clock's country, then the language's region, else the US", () => {
    expect(guessCountry(['fr-FR', 'fr'], 'Europe/Paris')).toBe('FR');
    expect(guessCountry(['en-US'], 'Europe/London')).toBe('GB');
    expect(guessCountry(['de-DE'], undefined)).toBe('DE');
    expect(guessCountry(['en-AU'], 'Australia/Sydney')).toBe('AU');
    expect(guessCountry(['en'], 'UTC')).toBe('US');
    expect(guessCountry(['xx-ZZ', 'not a tag'], 'Mars/Olympus')).toBe('US');
  });
});
