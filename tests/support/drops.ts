import { eq, sql } from 'drizzle-orm';
import { expect } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import type { DropStatus } from '../../common/contracts/drops';
import { products } from '../../server/modules/catalog/catalog.tables';
import { drops } from '../../server/modules/drops/drops.tables';
import type { TestApp, TestClient } from './build-test-app';
import { solvePow } from './pow';
import { createProduct, type ProductFixture } from './shop-fixtures';

/** Waiting-room fixtures (ADR 010): drops, joins that solve the bot check as the storefront does. */

/** A product whose release is `releaseInMs` from now (negative: already released). */
export async function createDrop(t: TestApp, releaseInMs: number, over: ProductFixture = {}): Promise<string> {
  const id = await createProduct(t.database.db, { sizes: [], ...over, releaseAt: new Date(Date.now() + releaseInMs) });
  t.services.catalog.invalidate();
  return id;
}

/** Moves a product's release (the database's clock: `now() + ms`). */
export async function moveRelease(t: TestApp, productId: string, ms: number): Promise<void> {
  await t.database.db
    .update(products)
    .set({ releaseAt: sql`now() + ${`${ms} milliseconds`}::interval` })
    .where(eq(products.id, productId));
  t.services.catalog.invalidate();
}

/** Restarts the drop's pacing clock now (admission counts from this instant). */
export async function restartPacing(t: TestApp, productId: string): Promise<void> {
  await t.database.db.update(drops).set({ admittedAt: sql`now()` }).where(eq(drops.productId, productId));
}

/** POST /api/drops/:id/queue with a freshly solved proof of work (or the given `altcha`), from `ip`. */
export async function joinDrop(
  client: TestClient,
  productId: string,
  opts: { ip?: string; altcha?: string | null } = {},
): Promise<LightMyRequestResponse> {
  let altcha = opts.altcha;
  if (altcha === undefined) altcha = await solvePow((await client.get('/api/pow-challenge')).json());
  return client.request({
    method: 'POST',
    url: `/api/drops/${productId}/queue`,
    payload: altcha === null ? {} : { altcha },
    headers: { 'content-type': 'application/json' },
    ...(opts.ip ? { remoteAddress: opts.ip } : {}),
  });
}

export async function dropStatus(client: TestClient, productId: string): Promise<DropStatus> {
  const res = await client.get(`/api/drops/${productId}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as DropStatus;
}

/** Ticks the pacing until this client is let in (a few seconds at most), then takes its admission pass. */
export async function admitAndPass(t: TestApp, client: TestClient, productId: string): Promise<void> {
  for (let i = 0; i < 50; i++) {
    if ((await dropStatus(client, productId)).ticket?.status === 'admitted') break;
    await t.services.drops.tick();
    await new Promise((r) => setTimeout(r, 100));
  }
  const res = await client.post(`/api/drops/${productId}/pass`);
  expect(res.statusCode, res.body).toBe(200);
}
