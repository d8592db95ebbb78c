import { isDatabaseUnavailable } from '../../db/db-errors';
import type { Db, DbOrTx } from '../../db/client';
import type { Category, Product, SizeStock } from '../../../common/contracts/catalog';
import { formatMoney, formatMoneyOrNull } from '../../../common/domain/money';
import { rankBySearch } from '../../../common/domain/search';
import { sellOutSeconds } from '../../../common/domain/sell-out';
import { isAvailable } from '../../../common/domain/stock';
import type { CatalogChangeFeed } from './catalog-changes';
import {
  deleteProductRow,
  findCategoryRow,
  findProductRow,
  findProductRows,
  insertProductRow,
  listCategoryRows,
  listProductRows,
  updateProductRow,
  type CategoryRow,
  type ProductDetails,
  type ProductRow,
} from './catalog.repository';

export function toProduct(row: ProductRow): Product {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    // Cents in the row, the contract's decimal string on the wire (docs/decisions/016-money-minor-units.md).
    price: formatMoney(row.priceCents),
    salePrice: formatMoneyOrNull(row.salePriceCents),
    category: row.category,
    subcategory: row.subcategory,
    materials: row.materials,
    sustainabilityInfo: row.sustainabilityInfo,
    stock: row.stock,
    // Sold out is never "in stock", whatever the flag says.
    inStock: isAvailable(row),
    isNew: row.isNew,
    isOnSale: row.isOnSale,
    images: row.images,
    sizes: row.sizes,
    colors: row.colors,
    editionSize: row.editionSize,
    soldCount: row.soldCount,
    releaseAt: row.releaseAt ? row.releaseAt.toISOString() : null,
    maxPerShopper: row.maxPerShopper,
    nonReturnable: row.nonReturnable,
    soldOutAt: row.soldOutAt ? row.soldOutAt.toISOString() : null,
    sellOutSeconds: sellOutSeconds(row),
  };
}

export function toCategory(row: CategoryRow): Category {
  return { id: row.id, slug: row.slug, name: row.name, description: row.description, image: row.image };
}

export interface Snapshot {
  /** Changes only when the catalogue's content does: pages rendered from an equal version are current. */
  version: number;
  loadedAt: number;
  products: Product[];
  productsJson: string;
  byId: Map<string, Product>;
  categories: Category[];
  categoriesJson: string;
}

/** While other instances' changes arrive by NOTIFY, a snapshot is kept until a change (this bound is a safety net). */
const LIVE_MAX_AGE_MS = 60_000;
/** While the change listener is down (or absent), a snapshot is re-read this often. */
export const FALLBACK_MAX_AGE_MS = 1_000;

/**
 * The catalogue is read far more than it changes: keep one serialised snapshot in memory.
 * Every local write (admin edits, stock holds, releases, sales, refunds) calls `invalidate()` after it
 * commits: the snapshot is dropped at once here and the other instances are told through
 * PostgreSQL NOTIFY (`changes`). Stock is always enforced by the database, never by this copy.
 */
/**
 * What the catalogue needs of inventory (filled in services.ts): the pieces left per size of these products,
 * so the catalogue JSON carries `sizeStock` for a product split into sizes (ADR 015) and every card greys a
 * sold-out size (docs/product.md).
 */
export type CatalogSizeStock = (productIds: readonly string[]) => Promise<Map<string, ReadonlyArray<SizeStock>>>;

/** A product split into sizes says what is left of each; one pool (only the one-run row, size null) says nothing more. */
function withSizeStock(product: Product, run: ReadonlyArray<SizeStock> | undefined): Product {
  if (!run || !run.some((v) => v.size !== null)) return product;
  return { ...product, sizeStock: run.map((v) => ({ size: v.size, colour: v.colour, left: v.left })) };
}

export function createCatalogService(
  db: Db,
  opts: { changes?: CatalogChangeFeed; fallbackMaxAgeMs?: number; sizeStock?: CatalogSizeStock } = {},
) {
  const { changes } = opts;
  const fallbackMaxAgeMs = opts.fallbackMaxAgeMs ?? FALLBACK_MAX_AGE_MS;
  let snapshot: Snapshot | null = null;
  let previous: Snapshot | null = null;
  let loading: Promise<Snapshot> | null = null;
  let generation = 0;
  let lastVersion = 0;

  const maxAge = () => (changes?.live ? LIVE_MAX_AGE_MS : fallbackMaxAgeMs);

  async function load(): Promise<Snapshot> {
    const gen = generation;
    const [productRows, categoryRows] = await Promise.all([listProductRows(db), listCategoryRows(db)]);
    const runs = opts.sizeStock ? await opts.sizeStock(productRows.map((r) => r.id)) : new Map<string, SizeStock[]>();
    const products = productRows.map((row) => withSizeStock(toProduct(row), runs.get(row.id)));
    const categories = categoryRows.map(toCategory);
    const productsJson = JSON.stringify(products);
    const categoriesJson = JSON.stringify(categories);
    const same = previous && previous.productsJson === productsJson && previous.categoriesJson === categoriesJson;
    const snap: Snapshot = {
      // A new number for any new content, even from a load that is superseded before it lands.
      version: same ? previous!.version : ++lastVersion,
      loadedAt: Date.now(),
      products,
      productsJson,
      byId: new Map(products.map((p) => [p.id, p])),
      categories,
      categoriesJson,
    };
    if (gen === generation) {
      snapshot = snap;
      previous = snap;
    }
    return snap;
  }

  /** The snapshot when it is current, without a promise: the hot routes answer synchronously. */
  function freshSnapshot(): Snapshot | null {
    return snapshot && Date.now() - snapshot.loadedAt < maxAge() ? snapshot : null;
  }

  /** Since when loads fail because the database is away (null: it answers). */
  let unavailableSince: number | null = null;

  async function current(): Promise<Snapshot> {
    const fresh = freshSnapshot();
    if (fresh) return fresh;
    if (!loading) {
      const pending: Promise<Snapshot> = load()
        .then(
          (snap) => {
            unavailableSince = null;
            return snap;
          },
          (err: unknown) => {
            // Database away: browsing keeps the last catalogue (stock is still only decided by the database).
            if (!previous || !isDatabaseUnavailable(err)) throw err;
            unavailableSince ??= Date.now();
            return previous;
          },
        )
        .finally(() => {
          if (loading === pending) loading = null;
        });
      loading = pending;
    }
    // While the database is known to be away, nobody waits for a load that is likely to time out.
    if (unavailableSince !== null && previous) return previous;
    return loading;
  }

  /** Forget the snapshot; a load already under way may have read the old rows, so it is not waited for. */
  function drop(): void {
    generation++;
    snapshot = null;
    loading = null;
  }

  // Told of every change, here or on another instance, after it committed (live stock streams listen).
  const changeListeners: Array<() => void> = [];
  const changed = () => {
    for (const listener of changeListeners) listener();
  };
  changes?.onRemoteChange(() => {
    drop();
    changed();
  });

  return {
    current,
    freshSnapshot,
    /** The catalogue changed here (call after the commit): dropped at once, other instances told. */
    invalidate(): void {
      drop();
      changes?.publish();
      changed();
    },
    /** Calls `listener` after every catalogue change, local or from another instance (or when one may have been missed). */
    onChange(listener: () => void): void {
      changeListeners.push(listener);
    },
    /** Starts listening for other instances' changes (until then snapshots age out quickly). */
    startListening(): Promise<void> {
      return changes?.start() ?? Promise.resolve();
    },
    stopListening(): Promise<void> {
      return changes?.stop() ?? Promise.resolve();
    },
    /** True while other instances' changes arrive by NOTIFY (false: snapshots age out within a second). */
    isListening(): boolean {
      return changes?.live ?? false;
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
    async getProductFresh(id: string, tx: DbOrTx = db): Promise<Product | null> {
      const row = await findProductRow(tx, id);
      return row ? toProduct(row) : null;
    },
    /** Fresh from the database, by id (missing ids are left out). */
    async getProductsFresh(ids: readonly string[]): Promise<Map<string, Product>> {
      const rows = await findProductRows(db, [...new Set(ids)]);
      return new Map(rows.map((row) => [row.id, toProduct(row)]));
    },
    /** Every product, sold out and paused included, fresh from the database (the admin's list). */
    async listProductsFresh(): Promise<Product[]> {
      return (await listProductRows(db)).map(toProduct);
    },
    // Product writes (the admin's); the caller invalidates after its commit. Stock columns are inventory's.
    async insertProduct(tx: DbOrTx, details: ProductDetails): Promise<Product> {
      return toProduct(await insertProductRow(tx, details));
    },
    async updateProduct(tx: DbOrTx, id: string, details: ProductDetails): Promise<Product | null> {
      const row = await updateProductRow(tx, id, details);
      return row ? toProduct(row) : null;
    },
    deleteProduct(id: string): Promise<boolean> {
      return deleteProductRow(db, id);
    },
    async getProduct(id: string): Promise<Product | null> {
      return (await current()).byId.get(id) ?? null;
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

export type { ProductDetails };
export type CatalogService = ReturnType<typeof createCatalogService>;
