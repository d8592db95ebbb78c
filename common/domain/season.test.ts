import { expect, test } from 'vitest';
import { seasonLabel, seasonOf } from './season';

test('the season and its year come from one date', () => {
  expect(seasonLabel(seasonOf(new Date('2026-11-23T12:00:00Z')))).toBe('Fall 2026');
  expect(seasonOf(new Date('2026-01-05T00:00:00Z'))).toEqual({ name: 'Winter', year: 2026 });
  expect(seasonOf(new Date('2026-04-01T00:00:00Z')).name).toBe('Spring');
  expect(seasonOf(new Date('2026-07-01T00:00:00Z')).name).toBe('Summer');
  expect(seasonOf(new Date('2026-12-24T00:00:00Z'))).toEqual({ name: 'Winter', year: 2026 });
});
