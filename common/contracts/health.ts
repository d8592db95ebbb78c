import { z } from 'zod';
import { safeString } from './safe-string';

// GET /healthz (server/app.ts): 200 while the database answers within a second, else 503 with Retry-After.
export const healthSchema = z.object({ status: z.literal('ok'), database: z.enum(['embedded', 'external']) });
export type Health = z.infer<typeof healthSchema>;
export const healthUnavailableSchema = z.object({ status: z.literal('unavailable'), message: safeString() });
