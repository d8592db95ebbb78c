import path from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, test } from 'vitest';

// The server's module zones (eslint.config.js, import-x/no-restricted-paths; docs/architecture.md, Module
// map): a module imports no other module; flows, services.ts, app.ts, server/db, scripts and tests compose.
// Each snippet is linted as if it sat at that path in the tree, so the real configuration and resolver decide.
const root = path.resolve(import.meta.dirname, '..');
const eslint = new ESLint({ cwd: root });

async function zoneErrors(code: string, file: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, file) });
  return result!.messages.filter((m) => m.ruleId === 'import-x/no-restricted-paths').map((m) => m.message);
}

describe('server module zones', () => {
  test("a module importing another module's service is refused", async () => {
    const errors = await zoneErrors(
      "import { createCartService } from '../cart/cart.service';\nexport const x = createCartService;\n",
      'server/modules/wishlist/zone-breach.ts',
    );
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/A module imports no other module/);
  });

  test('a type-only import of another module is refused too', async () => {
    const errors = await zoneErrors(
      "import type { CatalogService } from '../catalog/catalog.service';\nexport type X = CatalogService;\n",
      'server/modules/alerts/zone-breach.ts',
    );
    expect(errors).toHaveLength(1);
  });

  test("a module's own files, server/lib, plugins and common are allowed", async () => {
    const code = [
      "import { createWishlistService } from './wishlist.service';",
      "import { mapLimit } from '../../lib/map-limit';",
      "import { notFound } from '../../lib/http-error';",
      "import { isUuid } from '../../../common/domain/ids';",
      'export const x = [createWishlistService, mapLimit, notFound, isUuid];',
      '',
    ].join('\n');
    expect(await zoneErrors(code, 'server/modules/wishlist/zone-allowed.ts')).toEqual([]);
  });

  test("a table may name another module's table (a foreign key), not its service", async () => {
    expect(
      await zoneErrors("import { products } from '../catalog/catalog.tables';\nexport const x = products;\n", 'server/modules/wishlist/zone.tables.ts'),
    ).toEqual([]);
    expect(
      await zoneErrors("import { createCatalogService } from '../catalog/catalog.service';\nexport const x = createCatalogService;\n", 'server/modules/wishlist/zone.tables.ts'),
    ).toHaveLength(1);
  });

  test("inventory may write its stock columns on catalog's products table; another module may not", async () => {
    const code = "import { products } from '../catalog/catalog.tables';\nexport const x = products;\n";
    expect(await zoneErrors(code, 'server/modules/inventory/zone-allowed.ts')).toEqual([]);
    expect(await zoneErrors(code, 'server/modules/wishlist/zone-breach.ts')).toHaveLength(1);
  });

  test('flows and the wiring may import several modules; server/lib may import none', async () => {
    const several = [
      "import { createCartService } from '../modules/cart/cart.service';",
      "import { createCatalogService } from '../modules/catalog/catalog.service';",
      'export const x = [createCartService, createCatalogService];',
      '',
    ].join('\n');
    expect(await zoneErrors(several, 'server/flows/zone-allowed.ts')).toEqual([]);
    expect(await zoneErrors(several, 'server/lib/zone-breach.ts')).toHaveLength(2);
  });

  test('server/lib imports none of server/plugins (errors, cookies and lock keys sit below them)', async () => {
    const code = "import { LruCache } from '../plugins/page-cache';\nexport const x = LruCache;\n";
    expect(await zoneErrors(code, 'server/lib/zone-breach.ts')).toHaveLength(1);
  });
});
