import { describe, expect, it } from 'vitest';
import { firstSizeSoldOut, formatDuration, sellOutSeconds, sellOutStory, stockLeftText } from './sell-out';
import { sizedSellOutStory } from './size-run';

describe('live stock text', () => {
  it('says how many of the edition are left, never below 0', () => {
    expect(stockLeftText(7, 50)).toBe('7 of 50 left');
    expect(stockLeftText(-1, 50)).toBe('0 of 50 left');
  });
});

describe('sell-out story', () => {
  it('formats durations in at most two units', () => {
    expect(formatDuration(45)).toBe('45 s');
    expect(formatDuration(192)).toBe('3 min 12 s');
    expect(formatDuration(180)).toBe('3 min');
    expect(formatDuration(7_500)).toBe('2 h 5 min');
    expect(formatDuration(7_205)).toBe('2 h');
    expect(formatDuration(183_600)).toBe('2 d 3 h');
    expect(formatDuration(0)).toBe('0 s');
  });

  it('counts from the release time, or from creation when there is none', () => {
    const createdAt = new Date('2025-01-01T00:00:00Z');
    const releaseAt = new Date('2025-01-02T18:00:00Z');
    const soldOutAt = new Date('2025-01-02T18:03:12Z');
    expect(sellOutSeconds({ soldOutAt, releaseAt, createdAt })).toBe(192);
    expect(sellOutSeconds({ soldOutAt, releaseAt: null, createdAt })).toBe(151_392);
    expect(sellOutSeconds({ soldOutAt: null, releaseAt, createdAt })).toBeNull();
    expect(sellOutSeconds({ soldOutAt: createdAt, releaseAt, createdAt })).toBeNull();
  });

  it('tells how the edition ended', () => {
    expect(sellOutStory(50, 192)).toBe('All 50 sold in 3 min 12 s');
    expect(sellOutStory(50, null)).toBe('All 50 sold');
  });
});

describe('the first size to sell out (ADR 015)', () => {
  const start = Date.parse('2025-01-02T18:00:00Z');
  const at = (s: number) => new Date(start + s * 1000);

  it('names the size whose last piece went first, timed from the release', () => {
    const sizes = [
      { size: 'S', soldOutAt: at(150) },
      { size: 'M', soldOutAt: at(41) },
      { size: 'L', soldOutAt: null },
      // Pieces sold before the edition was split are no size, however early they went.
      { size: null, soldOutAt: at(5) },
    ];
    expect(firstSizeSoldOut(sizes, start)).toEqual({ size: 'M', seconds: 41 });
    expect(sizedSellOutStory(50, 192, firstSizeSoldOut(sizes, start))).toBe('All 50 sold in 3 min 12 s — M first, in 41 s');
  });

  it('is null while every size has pieces; seconds are null when the clocks disagree', () => {
    expect(firstSizeSoldOut([{ size: 'M', soldOutAt: null }], start)).toBeNull();
    expect(firstSizeSoldOut([], start)).toBeNull();
    expect(firstSizeSoldOut([{ size: 'XL', soldOutAt: at(-3) }], start)).toEqual({ size: 'XL', seconds: null });
    expect(sizedSellOutStory(50, 192, { size: 'XL', seconds: null })).toBe('All 50 sold in 3 min 12 s — XL first');
  });

  it('keeps the one-pool story as it was', () => {
    expect(sizedSellOutStory(50, 192, null)).toBe(sellOutStory(50, 192));
  });
});
