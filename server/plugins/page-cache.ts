import type { PrecompressedBody } from './precompressed';

/** A rendered page as it is sent: the same bytes for every shopper until the catalogue changes. */
export interface CachedPage {
  /** Catalogue snapshot version the page was rendered from. */
  version: number;
  status: number;
  /** Permanent redirect target instead of a body. */
  redirect?: string;
  body: PrecompressedBody | null;
  /** Anyone can mint such a page (seo's PageHead.openEnded): kept in the smaller cache of its own. */
  openEnded: boolean;
}

/** Least-recently-used map with a cap on entries and on (approximate) bytes. */
export class LruCache<V> {
  private readonly map = new Map<string, { value: V; bytes: number }>();
  private total = 0;

  constructor(
    private readonly maxEntries: number,
    private readonly maxBytes: number,
  ) {}

  get size(): number {
    return this.map.size;
  }

  get bytes(): number {
    return this.total;
  }

  get(key: string): V | undefined {
    const hit = this.map.get(key);
    if (!hit) return undefined;
    // Map keeps insertion order: re-inserting makes this the most recently used.
    this.map.delete(key);
    this.map.set(key, hit);
    return hit.value;
  }

  set(key: string, value: V, bytes: number): void {
    this.delete(key);
    if (bytes > this.maxBytes) return;
    this.map.set(key, { value, bytes });
    this.total += bytes;
    while (this.map.size > this.maxEntries || this.total > this.maxBytes) {
      const oldest = this.map.keys().next().value as string;
      this.delete(oldest);
    }
  }

  delete(key: string): void {
    const hit = this.map.get(key);
    if (!hit) return;
    this.map.delete(key);
    this.total -= hit.bytes;
  }

  clear(): void {
    this.map.clear();
    this.total = 0;
  }
}

export interface PageCacheOptions {
  /** Catalogue pages: home (and its grid pages), products, categories, static pages. */
  maxEntries?: number;
  maxBytes?: number;
  /**
   * Pages anyone can mint without end (search queries, made-up draw ids, unknown paths, other spellings of
   * a page, redirects) live in their own smaller cache, so a crawler or attacker walking them never evicts
   * the catalogue's pages.
   */
  openEndedEntries?: number;
  openEndedBytes?: number;
}

// Brotli and gzip of HTML come to about a third of the text together.
const approxBytes = (page: CachedPage) => Math.ceil((page.body?.identity.length ?? 64) * 1.35) + 256;

/**
 * Rendered pages for the current catalogue version. A new version empties the cache (every page
 * may show a changed product, price or stock); a page rendered from an older version is never
 * stored. Concurrent requests for a page being rendered share that one render.
 */
export function createPageCache(opts: PageCacheOptions = {}) {
  const pages = new LruCache<CachedPage>(opts.maxEntries ?? 2_000, opts.maxBytes ?? 48 * 1024 * 1024);
  const openEnded = new LruCache<CachedPage>(opts.openEndedEntries ?? 200, opts.openEndedBytes ?? 8 * 1024 * 1024);
  const rendering = new Map<string, Promise<CachedPage>>();
  let current = 0;

  /** Moves to a newer version (dropping every page); false for a version older than the current one. */
  function observe(version: number): boolean {
    if (version > current) {
      current = version;
      pages.clear();
      openEnded.clear();
    }
    return version === current;
  }

  return {
    /** The cached page for `key` at `version`, without a promise (the hot path). */
    get(key: string, version: number): CachedPage | null {
      if (!observe(version)) return null;
      return pages.get(key) ?? openEnded.get(key) ?? null;
    },

    /** Renders the page once for all concurrent askers and keeps it while `version` is current. */
    render(key: string, version: number, build: () => Promise<CachedPage>): Promise<CachedPage> {
      const id = `${version} ${key}`;
      let pending = rendering.get(id);
      if (!pending) {
        pending = build()
          .then((page) => {
            if (observe(page.version) && page.version === version) {
              const into = page.openEnded || page.status !== 200 ? openEnded : pages;
              into.set(key, page, approxBytes(page));
            }
            return page;
          })
          .finally(() => rendering.delete(id));
        rendering.set(id, pending);
      }
      return pending;
    },

    stats() {
      return { version: current, pages: pages.size, pageBytes: pages.bytes, openEnded: openEnded.size, openEndedBytes: openEnded.bytes };
    },
  };
}

export type PageCache = ReturnType<typeof createPageCache>;
