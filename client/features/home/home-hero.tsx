import { Link } from 'wouter';
import { ArrowDown } from 'lucide-react';
import { ProductImage } from '../../components/product-image';
import { Button } from '../../components/ui/button';
import { seasonLabel } from '../../../common/domain/season';
import { useShopSettings } from '../../lib/use-shop-settings';
import { scrollToShop } from './scroll-to-shop';

/** The LCP image: eager, high fetch priority, served at the width the layout needs. */
export const HERO_IMAGE = { src: '/uploads/seed/category-hoodies.webp', width: 1600, height: 1000 } as const;

export function HomeHero() {
  const { season } = useShopSettings();
  return (
    <section aria-labelledby="home-hero-title" className="relative overflow-hidden bg-ink text-paper">
      {/* The picture keeps its own 16:10 at every width (never cropped: its backdrop word stays whole);
          the words sit beside it from lg and the row takes the taller of the two. */}
      <div className="mx-auto grid max-w-[1440px] lg:grid-cols-[minmax(0,0.8fr)_minmax(0,1.2fr)] lg:items-center">
        <div className="relative z-10 flex flex-col justify-center gap-6 px-4 py-10 sm:px-8 md:py-14 lg:px-12 lg:py-12">
          <p className="type-eyebrow flex items-center gap-3 text-neutral-300">
            <span aria-hidden="true" className="inline-block h-px w-8 bg-neutral-500" />
            {seasonLabel(season)} · Limited drop
          </p>
          <h1 id="home-hero-title" className="type-display lg:text-[min(6.4vw,6.25rem)]">
            Fifty made.
            <br />
            <span className="text-neutral-400">Then gone.</span>
          </h1>
          <p className="max-w-md text-base text-neutral-300 md:text-lg">
            Sustainable streetwear in runs of 50 pieces worldwide. Made to order, numbered, and never
            reproduced once it sells out.
          </p>
          <div className="flex flex-wrap gap-3 pt-1">
            <Button variant="inverse" size="lg" onClick={scrollToShop}>
              Shop Collection
              <ArrowDown className="h-4 w-4" aria-hidden="true" />
            </Button>
            <Button
              asChild
              variant="secondary"
              size="lg"
              className="border-paper/60 text-paper hover:border-paper hover:bg-paper hover:text-ink"
            >
              <Link href="/mission">Our Mission</Link>
            </Button>
          </div>
          <dl className="mt-2 grid max-w-sm grid-cols-3 gap-4 border-t border-paper/15 pt-5">
            <div>
              <dt className="type-eyebrow text-neutral-400">Per design</dt>
              <dd className="type-mono mt-1 text-lg">50</dd>
            </div>
            <div>
              <dt className="type-eyebrow text-neutral-400">Remakes</dt>
              <dd className="type-mono mt-1 text-lg">0</dd>
            </div>
            <div>
              <dt className="type-eyebrow text-neutral-400">Delivery</dt>
              <dd className="type-mono mt-1 text-lg">CO₂ 0</dd>
            </div>
          </dl>
        </div>
        {/* Phones see the product first: the picture leads, the words follow. */}
        <div className="relative order-first aspect-[16/10] w-full lg:order-none">
          <ProductImage
            src={HERO_IMAGE.src}
            alt={`Three limited-edition hoodies from the ${season.name.toLowerCase()} drop: grey, black and orange`}
            width={HERO_IMAGE.width}
            height={HERO_IMAGE.height}
            sizes="(min-width: 1440px) 864px, (min-width: 1024px) 60vw, 100vw"
            priority
            className="absolute inset-0 h-full w-full object-contain"
          />
        </div>
      </div>
    </section>
  );
}
