import { expect, test } from 'vitest';
import type { CartItem } from '../../../common/contracts/cart';
import { describeEachDb, type TestClient } from '../../../tests/support/build-test-app';
import { createProduct } from '../../../tests/support/shop-fixtures';
import { publicSessionRef } from '../session/session-ref';

// Every cart answer goes through one mapping (toCartItem) and its route's response schema: the raw
// session id (the session cookie's bearer credential) is never in a body, only its public digest.

/** The raw session id inside the signed session cookie (`<sid>.<signature>`). */
const rawSid = (c: TestClient) => decodeURIComponent(c.cookies.get('fifty_sid')!).split('.').slice(0, -1).join('.');

describeEachDb('cart answers: one mapping, a response schema, never the raw session id', (t) => {
  test('POST, GET, PUT, DELETE: no answer carries the raw session id; sessionId is its digest everywhere', async () => {
    const db = t().database.db;
    const [a, b] = [await createProduct(db, { sizes: [] }), await createProduct(db, { sizes: [] })];
    const shopper = t().client();
    const bodies: string[] = [];

    const added = await shopper.post('/api/cart', { productId: a, quantity: 1 });
    expect(added.statusCode, added.body).toBe(200);
    bodies.push(added.body);
    const sid = rawSid(shopper);
    expect(sid).toMatch(/^[A-Za-z0-9_-]{20,}$/);
    const ref = publicSessionRef(sid);
    expect(ref).not.toBe(sid);

    const line = added.json() as CartItem;
    expect(line.sessionId).toBe(ref);
    // Exactly the contract's fields, nothing more.
    expect(Object.keys(line).sort()).toEqual(['id', 'product', 'productId', 'quantity', 'selectedColor', 'selectedSize', 'sessionId']);

    const second = await shopper.post('/api/cart', { productId: b, quantity: 2 });
    bodies.push(second.body);
    const list = await shopper.get('/api/cart');
    bodies.push(list.body);
    expect((list.json() as CartItem[]).map((l) => l.sessionId)).toEqual([ref, ref]);
    // The POST answer and the GET answer of the same line are one shape (one mapping).
    const listed = (list.json() as CartItem[]).find((l) => l.id === line.id)!;
    expect(Object.keys(listed).sort()).toEqual(Object.keys(line).sort());
    expect(Object.keys(listed.product).sort()).toEqual(Object.keys(line.product).sort());

    const changed = await shopper.put(`/api/cart/${line.id}`, { quantity: 3 });
    expect(changed.statusCode, changed.body).toBe(200);
    expect((changed.json() as CartItem).sessionId).toBe(ref);
    bodies.push(changed.body);
    const removed = await shopper.put(`/api/cart/${line.id}`, { quantity: 0 });
    expect(removed.json()).toEqual({ success: true, removed: true });
    bodies.push(removed.body);
    const secondId = (second.json() as CartItem).id;
    const deleted = await shopper.delete(`/api/cart/${secondId}`);
    expect(deleted.json()).toEqual({ success: true });
    bodies.push(deleted.body);
    const cleared = await shopper.delete('/api/cart');
    expect(cleared.json()).toEqual({ success: true });
    bodies.push(cleared.body);
    // Refusals too.
    const refused = await shopper.put(`/api/cart/${secondId}`, { quantity: 1 });
    expect(refused.statusCode).toBe(404);
    bodies.push(refused.body);

    for (const body of bodies) expect(body).not.toContain(sid);
  });

  test('a mapping that drifts (a field it should not have) is cut by the response schema', async () => {
    const id = await createProduct(t().database.db, { sizes: [] });
    const shopper = t().client();
    expect((await shopper.post('/api/cart', { productId: id })).statusCode).toBe(200);
    const sid = rawSid(shopper);
    const cart = t().services.cart;
    const list = cart.list.bind(cart);
    // The route calls the same service object: make it return a line with the raw id in an extra field.
    cart.list = async (s) => (await list(s)).map((l) => ({ ...l, rawSessionId: sid, product: { ...l.product, sid } }));
    try {
      const res = await shopper.get('/api/cart');
      expect(res.statusCode).toBe(200);
      expect(res.body).not.toContain(sid);
      expect(res.body).not.toContain('rawSessionId');
    } finally {
      cart.list = list;
    }
  });
});
