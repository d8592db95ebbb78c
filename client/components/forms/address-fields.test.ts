import { describe, expect, it } from 'vitest';
import { addressErrors, addressForSubmit } from './address-fields';

describe('the shared address form', () => {
  it('sends only the fields the country has: a US state typed before switching to France does not travel', () => {
    const typed = {
      shippingAddress: '5 rue Oberkampf',
      shippingCity: 'Paris',
      shippingState: 'IDF',
      shippingZip: '75011',
      shippingCountry: 'FR',
    };
    expect(addressForSubmit(typed)).toEqual({ ...typed, shippingState: '' });
    expect(addressForSubmit({ ...typed, shippingCountry: 'US' })).toEqual({ ...typed, shippingCountry: 'US' });
  });

  it("judges with the server's data and words: the spec's US messages, a UK postcode refused for France", () => {
    expect(addressErrors({ shippingCountry: 'US' })).toEqual({
      shippingAddress: 'Shipping address is required',
      shippingCity: 'City is required',
      shippingState: 'State is required',
      shippingZip: 'ZIP code is required',
    });
    expect(
      addressErrors({ shippingAddress: '5 rue Oberkampf', shippingCity: 'Paris', shippingZip: 'EC1Y 8SY', shippingCountry: 'FR' }),
    ).toEqual({ shippingZip: 'This postal code does not look like a French postal code' });
  });
});
