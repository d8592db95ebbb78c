import { BuiltDifferent } from '../features/home/built-different';
import { CategoryTiles } from '../features/home/category-tiles';
import { FeaturedProducts } from '../features/home/featured-products';
import { HeroCarousel } from '../features/home/hero-carousel';
import { HomeHero } from '../features/home/home-hero';
import { Testimonials } from '../features/home/testimonials';
import { ProductGrid } from '../features/catalog/product-grid';
import { useProducts } from '../features/catalog/use-products';
import { NewsletterSection } from '../features/newsletter/newsletter-section';

export default function HomePage() {
  const { data: products, isLoading } = useProducts();

  return (
    <>
      <HomeHero />
      <HeroCarousel />
      <CategoryTiles />
      {products ? <FeaturedProducts products={products} /> : null}
      <div className="mx-auto max-w-7xl px-4 py-16 md:px-6 md:py-24">
        <ProductGrid
          id="shop"
          title="Latest Drops"
          subtitle="Our limited edition collection: every design capped at 50 pieces worldwide, made to order and never restocked. When they're gone, they're gone."
          products={products}
          isLoading={isLoading}
        />
      </div>
      <BuiltDifferent />
      <Testimonials />
      <NewsletterSection />
    </>
  );
}
