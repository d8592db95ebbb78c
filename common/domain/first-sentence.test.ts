import { describe, expect, test } from 'vitest';
import { firstSentence } from './first-sentence';

describe('firstSentence', () => {
  test('takes text up to the first sentence end', () => {
    expect(firstSentence('A heavyweight tee. Boxy shoulders.')).toBe('A heavyweight tee.');
    expect(firstSentence('Heavyweight cotton. Soft hand.')).toBe('Heavyweight cotton.');
    expect(firstSentence('Loud! Quiet.')).toBe('Loud!');
    expect(firstSentence('Made in 2.5 weeks? Yes.')).toBe('Made in 2.5 weeks?');
  });

  test('the whole text when there is no sentence end; whitespace collapsed', () => {
    expect(firstSentence('No full stop here')).toBe('No full stop here');
    expect(firstSentence('  Spaced\n out.  Next. ')).toBe('Spaced out.');
    expect(firstSentence('')).toBe('');
  });
});
