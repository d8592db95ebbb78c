import { describe, expect, test } from 'vitest';
import { colorImageIndex, imageForColor, imageSlug } from './color-image';

const tee = {
  images: [
    '/uploads/seed/concrete-bloom-tee-black.webp',
    '/uploads/seed/concrete-bloom-tee-detail.webp',
    '/uploads/seed/concrete-bloom-tee-white.webp',
    '/uploads/seed/concrete-bloom-tee-sunset-orange.webp',
  ],
  colors: [{ name: 'Black' }, { name: 'White' }, { name: 'Sunset Orange' }, { name: 'Ocean Blue' }],
};

describe('imageForColor', () => {
  test('picks the image named after the chosen colour', () => {
    expect(imageForColor(tee, 'White')).toBe('/uploads/seed/concrete-bloom-tee-white.webp');
    expect(imageForColor(tee, 'Sunset Orange')).toBe('/uploads/seed/concrete-bloom-tee-sunset-orange.webp');
    expect(imageForColor(tee, 'Black')).toBe('/uploads/seed/concrete-bloom-tee-black.webp');
  });

  test('a colour without its own image, no colour, or untagged uploads: the first image', () => {
    expect(imageForColor(tee, 'Ocean Blue')).toBe(tee.images[0]);
    expect(imageForColor(tee, null)).toBe(tee.images[0]);
    expect(imageForColor(tee, '')).toBe(tee.images[0]);
    const uploads = { images: ['/uploads/products/0a1b2c.webp', '/uploads/products/3d4e5f.webp'], colors: [{ name: 'Navy' }] };
    expect(imageForColor(uploads, 'Navy')).toBe('/uploads/products/0a1b2c.webp');
    expect(colorImageIndex(tee, 'Ocean Blue')).toBe(-1);
    expect(imageForColor({ images: [] }, 'Black')).toBeNull();
  });

  test('"Black" does not take the image of "Midnight Black"', () => {
    const p = {
      images: ['/uploads/seed/night-midnight-black.webp', '/uploads/seed/night-black.webp'],
      colors: [{ name: 'Midnight Black' }, { name: 'Black' }],
    };
    expect(imageForColor(p, 'Black')).toBe('/uploads/seed/night-black.webp');
    expect(imageForColor(p, 'Midnight Black')).toBe('/uploads/seed/night-midnight-black.webp');
    // Without its own image, Black falls back to the first image rather than Midnight Black's by name.
    const onlyMidnight = { images: ['/uploads/seed/x-detail.webp', '/uploads/seed/x-midnight-black.webp'], colors: p.colors };
    expect(imageForColor(onlyMidnight, 'Black')).toBe('/uploads/seed/x-detail.webp');
  });

  test('size variants, absolute URLs and queries name the same image', () => {
    const p = { images: ['https://cdn.example.com/p/a-navy-800.webp?v=2', 'https://cdn.example.com/p/a-grey.webp'] };
    expect(imageForColor(p, 'Grey')).toBe('https://cdn.example.com/p/a-grey.webp');
    expect(imageForColor(p, 'Navy')).toBe('https://cdn.example.com/p/a-navy-800.webp?v=2');
  });

  test('untagged uploads that line up one for one with the colours follow the colour order', () => {
    const p = {
      images: ['/uploads/products/aa.webp', '/uploads/products/bb.webp', '/uploads/products/cc.webp'],
      colors: [{ name: 'Black' }, { name: 'Navy' }, { name: 'Grey' }],
    };
    expect(imageForColor(p, 'Navy')).toBe('/uploads/products/bb.webp');
    expect(colorImageIndex(p, 'Grey')).toBe(2);
    expect(colorImageIndex(p, 'Red')).toBe(-1);
    // One image more than colours (a close-up, a back view): no order to follow.
    expect(imageForColor({ ...p, images: [...p.images, '/uploads/products/dd.webp'] }, 'Navy')).toBe('/uploads/products/aa.webp');
  });

  test('imageSlug', () => {
    expect(imageSlug('Forest Green')).toBe('forest-green');
    expect(imageSlug('  Off/White ')).toBe('off-white');
  });
});
