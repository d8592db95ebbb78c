// docs/product.md §3 hard-coded display data: hero slide (id, title, description, image, cta label).
// Images are the demo catalogue's art; `{threshold}` and `{season}` are filled from the server's settings.

export interface HeroSlide {
  id: string;
  eyebrow: string;
  title: string;
  description: string;
  image: string;
  /** intrinsic size of the 1600 w image */
  width: number;
  height: number;
  cta: string;
  /** colour scheme of the slide panel */
  tone: 'ink' | 'accent' | 'bone';
}

export const HERO_SLIDES: readonly HeroSlide[] = [
  {
    id: 'free-shipping',
    eyebrow: 'On us',
    title: 'Free Shipping Over {threshold}',
    description:
      'Every order of {threshold} and above ships free. No code, no catch — carbon-neutral delivery included.',
    image: '/uploads/seed/block-party-hoodie-black.webp',
    width: 1600,
    height: 1600,
    cta: 'Shop Now',
    tone: 'accent',
  },
  {
    id: 'season',
    eyebrow: 'New season',
    title: '{season} Collection',
    description: 'Heavy cottons, muted earth tones and loud graphics for shorter days and longer nights.',
    image: '/uploads/seed/category-tshirts.webp',
    width: 1600,
    height: 1000,
    cta: 'Explore the Drop',
    tone: 'ink',
  },
  {
    id: 'limited-edition',
    eyebrow: '50 pieces. Worldwide.',
    title: 'Limited Edition',
    description:
      'Every design is capped at fifty pieces, made to order and never reproduced once it sells out.',
    image: '/uploads/seed/concrete-bloom-tee-black.webp',
    width: 1600,
    height: 1600,
    cta: 'Claim Yours',
    tone: 'bone',
  },
  {
    id: 'hoodies',
    eyebrow: 'Heavyweight fleece',
    title: 'Hoodies Built for Cold Nights',
    description: 'Dense brushed fleece, double-lined hoods and graphics that hold up wash after wash.',
    image: '/uploads/seed/category-hoodies.webp',
    width: 1600,
    height: 1000,
    cta: 'Shop Hoodies',
    tone: 'ink',
  },
  {
    id: 'shop-now',
    eyebrow: 'Going fast',
    title: 'Shop Now Before It’s Gone',
    description: 'When a run sells out it is archived for good. No restocks, no second chances.',
    image: '/uploads/seed/sunset-riot-hoodie-sunset-orange.webp',
    width: 1600,
    height: 1600,
    cta: 'Shop Now',
    tone: 'accent',
  },
  {
    id: 'member',
    eyebrow: 'The inner circle',
    title: 'Become a Member',
    description: 'Join the list for 10% off your first order. Tap Notify me on a drop to be mailed when its line opens.',
    image: '/uploads/seed/category-accessories.webp',
    width: 1600,
    height: 1000,
    cta: 'Join the Drop',
    tone: 'ink',
  },
  {
    id: 'street-style',
    eyebrow: 'Worn, not hung',
    title: 'Street Style',
    description:
      'Made for pavement, rooftops and late trains. Pieces that look better the more you live in them.',
    image: '/uploads/seed/cold-front-beanie-charcoal.webp',
    width: 1600,
    height: 1600,
    cta: 'Find Your Fit',
    tone: 'bone',
  },
];
