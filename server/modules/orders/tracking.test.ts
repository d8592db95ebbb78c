import { expect, test } from 'vitest';
import { trackingUrlOf } from './tracking';

test('a known carrier links to its tracking page with the number encoded; other or missing: no link', () => {
  expect(trackingUrlOf('ups', '1Z999AA10123456784')).toBe('https://www.ups.com/track?tracknum=1Z999AA10123456784');
  expect(trackingUrlOf('usps', 'a b&c')).toBe('https://tools.usps.com/go/TrackConfirmAction?tLabels=a%20b%26c');
  expect(trackingUrlOf('other', '123')).toBeNull();
  expect(trackingUrlOf('dhl', null)).toBeNull();
  expect(trackingUrlOf(null, '123')).toBeNull();
});
