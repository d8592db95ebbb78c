import { expect } from 'vitest';
import type { TestApp, TestClient } from './build-test-app';

/** The password buildTestApp configures (ADMIN_PASSWORD). */
export const TEST_ADMIN_PASSWORD = 'test-admin-password';

/** Logs a client in as admin and returns it (its cookie jar now carries the admin session). */
export async function loginAsAdmin(client: TestClient): Promise<TestClient> {
  const res = await client.post('/api/admin/login', { password: TEST_ADMIN_PASSWORD });
  expect(res.statusCode, res.body).toBe(200);
  return client;
}

/** A fresh client logged in as admin. */
export function adminClient(t: TestApp): Promise<TestClient> {
  return loginAsAdmin(t.client());
}
