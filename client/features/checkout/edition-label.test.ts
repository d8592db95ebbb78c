import { expect, test } from 'vitest';
import { editionLabel } from './edition-label';

test('edition label reads "No. N of SIZE"', () => {
  expect(editionLabel(17, 50)).toBe('No. 17 of 50');
  expect(editionLabel(1, 50)).toBe('No. 1 of 50');
});
