import { z } from 'zod';
import { safeString } from './safe-string';

// ---------------------------------------------------------------------------------------------
// The owner's known devices (ADR 012): GET /api/admin/devices, DELETE /api/admin/devices/:id
// ---------------------------------------------------------------------------------------------

export const adminDeviceSchema = z.object({
  id: z.string(),
  createdAt: z.string(),
  lastUsedAt: z.string(),
  /** Browser family and OS at the last login, e.g. "Firefox on macOS". */
  lastAgent: z.string(),
  /** 6 hex characters that tell networks apart without naming an address. */
  lastNetwork: z.string(),
  /** The browser making this request. */
  current: z.boolean(),
});
export type AdminDevice = z.infer<typeof adminDeviceSchema>;
export const adminDeviceListSchema = z.array(adminDeviceSchema);

export const adminDeviceIdParams = z.object({ id: safeString().max(100) });
