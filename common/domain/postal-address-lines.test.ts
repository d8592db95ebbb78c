import { describe, expect, it } from 'vitest';
import { postalAddressLines } from './address-format';

describe('postalAddressLines', () => {
  it('writes a US address as before, the city as typed (not the label capitals), the country last', () => {
    expect(
      postalAddressLines({
        name: 'Ada Lovelace',
        shippingAddress: '8 Right Turn',
        shippingCity: 'Cambridge',
        shippingState: 'MA',
        shippingZip: '02139',
        shippingCountry: 'US',
      }),
    ).toEqual(['Ada Lovelace', '8 Right Turn', 'Cambridge, MA 02139', 'United States']);
  });

  it('puts a French postcode before the city and a UK postcode on its own line', () => {
    expect(
      postalAddressLines({
        shippingAddress: '12 rue de la Roquette',
        shippingCity: 'Paris',
        shippingState: '',
        shippingZip: '75011',
        shippingCountry: 'FR',
      }),
    ).toEqual(['12 rue de la Roquette', '75011 Paris', 'France']);
    expect(
      postalAddressLines({
        shippingAddress: '1 Old Street',
        shippingCity: 'London',
        shippingState: '',
        shippingZip: 'ec1y8sy',
        shippingCountry: 'GB',
      }),
    ).toEqual(['1 Old Street', 'London', 'EC1Y 8SY', 'United Kingdom']);
  });

  it('keeps a street that contains the city name whole', () => {
    const lines = postalAddressLines({
      shippingAddress: '3 Paris Road',
      shippingCity: 'Paris',
      shippingState: '',
      shippingZip: '75011',
      shippingCountry: 'FR',
    });
    expect(lines).toEqual(['3 Paris Road', '75011 Paris', 'France']);
  });
});
