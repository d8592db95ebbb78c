import { z } from 'zod';
import { safeString } from './safe-string';

/** Every API failure answers `{ message }` (DESIGN.md, server/plugins/error-handler.ts). */
export const apiErrorSchema = z.object({ message: safeString() });
export type ApiErrorBody = z.infer<typeof apiErrorSchema>;

/**
 * The error half of a route's `schema.response`: any 4xx or 5xx is `{ message }`. Spread it next to
 * the route's own 2xx schemas: `response: { 200: productSchema, ...errorResponses }`.
 */
export const errorResponses = { '4xx': apiErrorSchema, '5xx': apiErrorSchema } as const;
