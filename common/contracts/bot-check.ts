import { z } from 'zod';
import { safeString } from './safe-string';

/**
 * GET /api/pow-challenge (ADR 009): an altcha-lib v2 challenge, signed by the server. The shopper's browser
 * solves it and sends it back whole inside `altcha`, so every field the signature covers is listed here
 * (the response schema strips anything else).
 */
export const powChallengeSchema = z.object({
  codeChallenge: z.object({ image: safeString(), audio: safeString().optional(), length: z.number().int().optional() }).optional(),
  parameters: z.object({
    algorithm: safeString(),
    nonce: safeString(),
    salt: safeString(),
    cost: z.number(),
    keyLength: z.number(),
    keyPrefix: safeString(),
    keySignature: safeString().optional(),
    memoryCost: z.number().optional(),
    parallelism: z.number().optional(),
    expiresAt: z.number().optional(),
    data: z.record(z.string(), z.union([safeString(), z.number(), z.boolean(), z.null()])).optional(),
  }),
  signature: safeString().optional(),
});
export type PowChallenge = z.infer<typeof powChallengeSchema>;
