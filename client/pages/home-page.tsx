import { useEffect, useRef } from 'react';
import { useLocation, useSearch } from 'wouter';
import {
  PRODUCT_PAGE_MAX,
  gridSearch,
  parseGridQuery,
  type GridQuery,
} from '../../common/domain/product-page';
import { lazySection } from '../lib/lazy-section';
import { HomeHero } from '../features/home/home-hero';
import { DropHero } from '../features/home/drop-hero';
import { useDrops } from '../lib/use-drops';
import type { Product } from '../../common/contracts/catalog';
import { useCategories, useFeaturedProducts, useProductPage, useUpcomingDrops } from '../features/catalog/use-products';

// Below the first screen: rendered by the server with the rest, their code fetched and hydrated as
// they come near the viewport or the shopper starts scrolling (client/lib/lazy-section.tsx).
const HeroCarousel = lazySection(() => import('../features/home/hero-carousel').then((m) => m.HeroCarousel));
// Composed here: the home sections show the catalogue's categories and product cards (features do not
// import each other); each section's chunk is fetched with the card's.
const CategoryTiles = lazySection(() =>
  import('../features/home/category-tiles').then(
    (m) =>
      function HomeCategoryTiles() {
        const { data, isLoading } = useCategories();
        return <m.CategoryTiles categories={data} isLoading={isLoading} />;
      },
  ),
);
const loadProductCard = () => import('../features/catalog/product-card').then((m) => m.ProductCard);
const FeaturedProducts = lazySection(() =>
  Promise.all([import('../features/home/featured-products'), loadProductCard()]).then(
    ([m, Card]) =>
      function HomeFeatured(props: { featured: readonly Product[] }) {
        return <m.FeaturedProducts {...props} Card={Card} />;
      },
  ),
);
const UpcomingDrops = lazySection(() =>
  Promise.all([import('../features/home/upcoming-drops'), loadProductCard()]).then(
    ([m, Card]) =>
      function HomeUpcoming(props: { products: readonly Product[] }) {
        return <m.UpcomingDrops {...props} Card={Card} />;
      },
  ),
);
const GridPages = lazySection(() => import('../features/catalog/grid-pages').then((m) => m.GridPages));
const ProductGrid = lazySection(() => import('../features/catalog/product-grid').then((m) => m.ProductGrid));
const BuiltDifferent = lazySection(() =>
  import('../features/home/built-different').then((m) => m.BuiltDifferent),
);
const Testimonials = lazySection(() => import('../features/home/testimonials').then((m) => m.Testimonials));
const NewsletterSection = lazySection(() =>
  import('../features/newsletter/newsletter-section').then((m) => m.NewsletterSection),
);

/** A grid page's own URL (`/?category=hoodies&page=2`), landing on the grid (#shop). */
function gridHref(q: GridQuery, hash = '#shop'): string {
  const search = gridSearch(q);
  return `/${search ? `?${search}` : ''}${hash}`;
}

export default function HomePage() {
  // The grid's filter and page live in the URL: shareable, and the page links work without script.
  const query = parseGridQuery(useSearch(), PRODUCT_PAGE_MAX);
  const [, navigate] = useLocation();
  const grid = useProductPage(query);
  const featured = useFeaturedProducts();
  const upcoming = useUpcomingDrops();
  const drops = useDrops();
  const sectionRef = useRef<HTMLElement>(null);
  const shown = grid.data;

  // Another page: bring the top of the grid into view (a filter click keeps the scroll position).
  const lastPage = useRef(query.page);
  useEffect(() => {
    if (lastPage.current === query.page) return;
    lastPage.current = query.page;
    sectionRef.current?.scrollIntoView({ block: 'start' });
  }, [query.page]);

  return (
    <>
      {/* The drop first: a live or imminent drop above everything else. */}
      {drops.data && drops.data.length > 0 ? <DropHero drops={drops.data} /> : null}
      <HomeHero />
      <HeroCarousel />
      <CategoryTiles />
      {upcoming.data && upcoming.data.length > 0 ? <UpcomingDrops products={upcoming.data} /> : null}
      {featured.data ? <FeaturedProducts featured={featured.data} /> : null}
      <div className="mx-auto max-w-7xl px-4 py-16 md:px-6 md:py-24">
        <ProductGrid
          id="shop"
          sectionRef={sectionRef}
          title="Latest Drops"
          subtitle="Our limited edition collection: every design capped at 50 pieces worldwide, made to order and never produced again. When they're gone, they're gone."
          products={shown?.products}
          isLoading={!shown}
          filter={query.category ?? 'all'}
          onFilterChange={(value) =>
            navigate(gridHref({ category: value === 'all' ? null : value, page: 1 }, ''))
          }
          footer={
            shown ? (
              <GridPages
                page={shown.page}
                pageCount={shown.pageCount}
                pageSize={shown.pageSize}
                total={shown.total}
                hrefFor={(n) => gridHref({ category: shown.category, page: n })}
              />
            ) : null
          }
        />
      </div>
      <BuiltDifferent />
      <Testimonials />
      <NewsletterSection />
    </>
  );
}
