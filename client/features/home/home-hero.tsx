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
      <div className="mx-auto grid max-w-[1440px] lg:min-h-[36rem] lg:grid-cols-[1.05fr_1fr]">
        <div className="relative z-10 flex flex-col justify-center gap-6 px-4 py-8 sm:px-8 md:py-16 lg:px-12 lg:py-16">
          <p className="flex items-center gap-3 text-xs font-bold uppercase tracking-[0.3em] text-accent">
            <span aria-hidden="true" className="inline-block h-0.5 w-8 bg-accent" />
            {seasonLabel(season)} · Limited drop
          </p>
          <h1
            id="home-hero-title"
            className="font-display text-[clamp(3.75rem,15vw,7.5rem)] uppercase leading-[0.88]"
          >
            Fifty made.
            <br />
            <span className="text-accent">Then gone.</span>
          </h1>
          <p className="max-w-lg text-base text-neutral-300 md:text-lg">
            Sustainable streetwear in runs of 50 pieces worldwide. Made to order, numbered, and never
            reproduced once it sells out.
          </p>
          <div className="flex flex-wrap gap-3 pt-2">
            <Button variant="accent" size="lg" onClick={scrollToShop}>
              Shop Collection
              <ArrowDown className="h-5 w-5" aria-hidden="true" />
            </Button>
            <Button
              asChild
              variant="outline"
              size="lg"
              className="border-paper text-paper hover:bg-paper hover:text-ink"
            >
              <Link href="/mission">Our Mission</Link>
            </Button>
          </div>
          <dl className="mt-4 grid max-w-md grid-cols-3 gap-4 border-t border-paper/20 pt-6">
            <div>
              <dt className="text-xs uppercase tracking-widest text-neutral-400">Per design</dt>
              <dd className="font-display text-3xl">50</dd>
            </div>
            <div>
              <dt className="text-xs uppercase tracking-widest text-neutral-400">Remakes</dt>
              <dd className="font-display text-3xl">0</dd>
            </div>
            <div>
              <dt className="text-xs uppercase tracking-widest text-neutral-400">Delivery</dt>
              <dd className="font-display text-3xl">CO₂ 0</dd>
            </div>
          </dl>
        </div>
        {/* Phones see the product first: the picture leads, the words follow. */}
        <div className="relative order-first aspect-[16/10] lg:order-none lg:aspect-auto">
          <ProductImage
            src={HERO_IMAGE.src}
            alt="Three limited-edition hoodies from the fall drop: grey, black and orange"
            width={HERO_IMAGE.width}
            height={HERO_IMAGE.height}
            sizes="(min-width: 1024px) 50vw, 100vw"
            priority
            className="absolute inset-0 h-full w-full object-cover"
          />
          <div
            aria-hidden="true"
            className="absolute bottom-4 right-4 grid h-24 w-24 rotate-12 place-items-center rounded-full bg-accent text-center font-display text-sm uppercase leading-tight text-ink md:h-32 md:w-32 md:text-lg"
          >
            Only
            <br />
            50 made
          </div>
        </div>
      </div>
    </section>
  );
}
