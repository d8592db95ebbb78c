import { z } from 'zod';

/**
 * Text the shop accepts: no NUL (PostgreSQL cannot store it) and no lone UTF-16 surrogate (not text
 * at all). Every string a caller sends is checked (docs/security.md §4): bad text is a 400, never a
 * database error with the caller's data in it.
 */
export const INVALID_TEXT_MESSAGE = 'Text must not contain NUL characters or invalid Unicode';

// eslint-disable-next-line no-control-regex -- NUL is exactly what this refuses
const UNSAFE_TEXT = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export function isSafeText(value: string): boolean {
  return !UNSAFE_TEXT.test(value);
}

/** z.string() that refuses unsafe text first; chain .trim(), .min(), .email()… as usual. */
export function safeString(params?: Parameters<typeof z.string>[0]) {
  return z.string(params).refine(isSafeText, { message: INVALID_TEXT_MESSAGE, abort: true });
}

/**
 * The path of the first unsafe string anywhere in a parsed request part (params, query, JSON body),
 * keys included; null when all is well. Depth-limited: bodies are at most 1 MB of JSON anyway.
 */
export function findUnsafeText(value: unknown, path: string[] = [], depth = 0): string[] | null {
  if (typeof value === 'string') return isSafeText(value) ? null : path;
  if (depth > 32 || value === null || typeof value !== 'object' || ArrayBuffer.isView(value)) return null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = findUnsafeText(value[i], [...path, String(i)], depth + 1);
      if (found) return found;
    }
    return null;
  }
  for (const [key, inner] of Object.entries(value as Record<string, unknown>)) {
    if (!isSafeText(key)) return [...path, '(key)'];
    const found = findUnsafeText(inner, [...path, key], depth + 1);
    if (found) return found;
  }
  return null;
}
