import { describe, expect, test } from 'vitest';
import { isUuid } from './ids';

describe('isUuid', () => {
  test('accepts UUIDs in either case, nothing else', () => {
    expect(isUuid('00000000-0000-4000-8000-000000000000')).toBe(true);
    expect(isUuid('0A1B2C3D-4E5F-4A6B-8C7D-8E9F0A1B2C3D')).toBe(true);
    for (const bad of ['not-a-uuid', '', '123', '00000000-0000-4000-8000-000000000000x', "1' OR 1=1", null, undefined])
      expect(isUuid(bad)).toBe(false);
  });
});
