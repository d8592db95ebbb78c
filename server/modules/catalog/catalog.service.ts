import type { Db } from '../../db/client';
import type { Category, Product } from '../../../common/contracts/catalog';
import { rankBySearch } from '../../../common/domain/search';
import {
  findCategoryRow,
  findProductRow,
  listCategoryRows,
  listProductRows,
  type CategoryRow,
  type ProductRow,
} from './catalog.repository';

export function toProduct(row: ProductRow): Product {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    price: row.price,
    salePrice: row.salePrice,
    category: row.category,
    subcategory: row.subcategory,
    materials: row.materials,
    sustainabilityInfo: row.sustainabilityInfo,
    stock: row.stock,
    // Sold out is never "in stock", whatever the flag says.
    inStock: row.inStock && row.stock > 0,
    isNew: row.isNew,
    isOnSale: row.isOnSale,
    images: row.images,
    sizes: row.sizes,
    colors: row.colors,
    editionSize: row.editionSize,
    soldCount: row.soldCount,
  };
}

export function toCategory(row: CategoryRow): Category {
  return { id: row.id, slug: row.slug, name: row.name, description: row.description, image: row.image };
}

interface Snapshot {
  at: number;
  products: Product[];
  productsJson: string;
  categories: Category[];
  categoriesJson: string;
}

/**
 * The catalogue is read far more than it changes: keep one serialised snapshot in memory.
 * Local writes invalidate it at once; a short TTL bounds staleness across several app instances
 * (stock shown on cards may lag by that long; stock is always enforced by the database).
 */
export function createCatalogService(db: Db, opts: { ttlMs?: number } = {}) {
  const ttlMs = opts.ttlMs ?? 2000;
  let snapshot: Snapshot | null = null;
  let loading: Promise<Snapshot> | null = null;
  let generation = 0;

  async function load(): Promise<Snapshot> {
    const gen = generation;
    const [productRows, categoryRows] = await Promise.all([listProductRows(db), listCategoryRows(db)]);
    const products = productRows.map(toProduct);
    const categories = categoryRows.map(toCategory);
    const snap = {
      at: Date.now(),
      products,
      productsJson: JSON.stringify(products),
      categories,
      categoriesJson: JSON.stringify(categories),
    };
    if (gen === generation) snapshot = snap;
    return snap;
  }

  async function current(): Promise<Snapshot> {
    if (snapshot && Date.now() - snapshot.at < ttlMs) return snapshot;
    if (!loading) loading = load().finally(() => (loading = null));
    return loading;
  }

  /** The snapshot when it is fresh, without a promise: the hot list routes answer synchronously. */
  function freshSnapshot(): Snapshot | null {
    return snapshot && Date.now() - snapshot.at < ttlMs ? snapshot : null;
  }

  return {
    current,
    freshSnapshot,
    invalidate(): void {
      generation++;
      snapshot = null;
    },
    async listProducts(): Promise<Product[]> {
      return (await current()).products;
    },
    async productsJson(): Promise<string> {
      return (await current()).productsJson;
    },
    async categoriesJson(): Promise<string> {
      return (await current()).categoriesJson;
    },
    async listCategories(): Promise<Category[]> {
      return (await current()).categories;
    },
    async getCategory(slug: string): Promise<Category | null> {
      const snap = await current();
      return snap.categories.find((c) => c.slug === slug) ?? (await findCategoryRow(db, slug).then((r) => (r ? toCategory(r) : null)));
    },
    /** Fresh from the database: used where stock must be exact (cart, checkout, admin). */
    async getProductFresh(id: string): Promise<Product | null> {
      const row = await findProductRow(db, id);
      return row ? toProduct(row) : null;
    },
    async getProduct(id: string): Promise<Product | null> {
      const snap = await current();
      return snap.products.find((p) => p.id === id) ?? null;
    },
    async search(q: string): Promise<Product[]> {
      const snap = await current();
      const names = new Map(snap.categories.map((c) => [c.slug, c.name]));
      return rankBySearch(snap.products, q, (p) => ({
        name: p.name,
        description: p.description,
        materials: p.materials,
        categoryName: `${names.get(p.category) ?? ''} ${p.category}`,
      }));
    },
  };
}

export type CatalogService = ReturnType<typeof createCatalogService>;
