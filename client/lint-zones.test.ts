import path from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, test } from 'vitest';

// The client's feature zones (eslint.config.js, import-x/no-restricted-paths): a feature imports no other
// feature; shared code (client/lib, client/components) imports no feature. Linted as if the code sat at
// these paths in the tree, so the real configuration and resolver decide.
const root = path.resolve(import.meta.dirname, '..');
const eslint = new ESLint({ cwd: root });

async function zoneErrors(code: string, file: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, file) });
  return result!.messages.filter((m) => m.ruleId === 'import-x/no-restricted-paths').map((m) => m.message);
}

describe('client feature zones', () => {
  test('a feature importing another feature is refused', async () => {
    const errors = await zoneErrors(
      "import { useCategories } from '../catalog/use-products';\nexport const x = useCategories;\n",
      'client/features/home/zone-breach.ts',
    );
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/A feature imports no other feature/);
  });

  test('a lazy import of another feature is refused too', async () => {
    const errors = await zoneErrors(
      "export const load = () => import('../drops/drop-gate');\n",
      'client/features/product-detail/zone-breach.ts',
    );
    expect(errors).toHaveLength(1);
  });

  test('shared code importing a feature is refused', async () => {
    const errors = await zoneErrors(
      "import { ProductCard } from '../features/catalog/product-card';\nexport const x = ProductCard;\n",
      'client/components/zone-breach.tsx',
    );
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/Shared client code/);
  });

  test('a feature importing itself and the shared code, and a page composing features, are allowed', async () => {
    expect(
      await zoneErrors(
        [
          "import { ProductCard } from './product-card';",
          "import { useNow } from '../../lib/release-clock';",
          "import { WishlistButton } from '../../components/wishlist-button';",
          "import { resolveVariant } from '../../../common/domain/variant';",
          'export const x = [ProductCard, useNow, WishlistButton, resolveVariant];',
          '',
        ].join('\n'),
        'client/features/catalog/zone-ok.ts',
      ),
    ).toEqual([]);
    expect(
      await zoneErrors(
        [
          "import { DropGate } from '../features/drops/drop-gate';",
          "import { ProductDetail } from '../features/product-detail/product-detail';",
          'export const x = [DropGate, ProductDetail];',
          '',
        ].join('\n'),
        'client/pages/zone-ok.tsx',
      ),
    ).toEqual([]);
  });
});
