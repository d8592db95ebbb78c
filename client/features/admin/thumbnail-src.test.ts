import { expect, test } from 'vitest';
import { thumbnailSrc } from './thumbnail-src';

test('our uploads use their 400 px variant; other URLs are left alone', () => {
  expect(thumbnailSrc('/uploads/products/abc.webp')).toBe('/uploads/products/abc-400.webp');
  expect(thumbnailSrc('/uploads/seed/tee-800.webp')).toBe('/uploads/seed/tee-400.webp');
  expect(thumbnailSrc('https://cdn.example.com/a.webp')).toBe('https://cdn.example.com/a.webp');
  expect(thumbnailSrc('/uploads/a.png')).toBe('/uploads/a.png');
});
