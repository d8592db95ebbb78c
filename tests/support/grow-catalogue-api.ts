/**
 * Grows a running shop's catalogue to `total` products through the admin API, copying the existing
 * products (same copy, images, sizes, colours; numbered names). For e2e specs and benches, which
 * reach the shop only over HTTP. Returns the number of products afterwards.
 */
export async function growCatalogueOverApi(
  baseUrl: string,
  adminPassword: string,
  total: number,
): Promise<number> {
  const login = await fetch(`${baseUrl}/api/admin/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ password: adminPassword }),
  });
  if (!login.ok) throw new Error(`admin login failed: ${login.status} ${await login.text()}`);
  const cookie = login.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  type P = Record<string, unknown> & { name: string };
  const list = (await (await fetch(`${baseUrl}/api/products`)).json()) as P[];
  const missing = total - list.length;
  for (let start = 0; start < missing; start += 10) {
    await Promise.all(
      Array.from({ length: Math.min(10, missing - start) }, async (_, k) => {
        const n = list.length + start + k + 1;
        const {
          id: _id,
          inStock: _in,
          editionSize: _e,
          soldCount: _s,
          ...src
        } = list[(start + k) % list.length]!;
        const res = await fetch(`${baseUrl}/api/admin/products`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', cookie },
          body: JSON.stringify({
            ...src,
            name: `${src.name} No. ${n}`,
            stock: 1 + (n % 50),
            inStock: true,
            isNew: false,
          }),
        });
        if (!res.ok) throw new Error(`adding a product failed: ${res.status} ${await res.text()}`);
      }),
    );
  }
  return ((await (await fetch(`${baseUrl}/api/products`)).json()) as unknown[]).length;
}
