import type { ArtKind } from './product-art';
import { imageSlug } from '../../../common/domain/color-image';

// Demo catalogue for a fresh install. Images are not listed here: they are rendered by
// product-art.ts at seed time, one per colour, at the paths seedProductImages() predicts.

export type SeedCategorySlug = 'tshirts' | 'hoodies' | 'accessories';

export interface SeedCategory {
  slug: SeedCategorySlug;
  name: string;
  description: string;
  /** file stem under uploads/seed; the image path is `/uploads/seed/${imageKey}.webp` */
  imageKey: string;
}

export interface SeedColor {
  name: string;
  /** #rrggbb */
  value: string;
}

export interface SeedProduct {
  name: string;
  description: string;
  /** decimal string, e.g. "45.00" (stored as cents by seed.ts) */
  price: string;
  salePrice: string | null;
  category: SeedCategorySlug;
  subcategory: string | null;
  materials: string;
  sustainabilityInfo: string;
  /** 0..50: every design is capped at fifty pieces */
  stock: number;
  inStock: boolean;
  isNew: boolean;
  isOnSale: boolean;
  sizes: string[];
  colors: SeedColor[];
  art: { kind: ArtKind; graphic?: string; accent?: string };
}

export interface DiscountSeed {
  code: string;
  discountPercent: number;
  /** null = unlimited uses */
  maxUsage: number | null;
}

/** Size lists per category (docs/product.md §3); the admin form swaps to these when the category changes. */
export const categorySizes: Record<SeedCategorySlug, readonly string[]> = {
  tshirts: ['XS', 'S', 'M', 'L', 'XL', 'XXL'],
  hoodies: ['S', 'M', 'L', 'XL', 'XXL'],
  accessories: ['One Size', '7.5"', '8.0"', '8.25"', '8.5"'],
};

const paletteHex = {
  Black: '#111111',
  White: '#FFFFFF',
  Grey: '#9A9A9A',
  Charcoal: '#36454F',
  Navy: '#1F2A44',
  'Forest Green': '#2E5A3C',
  'Ocean Blue': '#2A6F97',
  'Sunset Orange': '#F26B38',
  'Steel Grey': '#71797E',
  'Midnight Black': '#101522',
  'Natural Bamboo': '#D8C39A',
  'Black Stain': '#2B2420',
} as const;

type PaletteName = keyof typeof paletteHex;

/** The admin colour palette (docs/product.md §3), in the order the admin form offers it. */
export const colorPalette: SeedColor[] = Object.entries(paletteHex).map(([name, value]) => ({ name, value }));

const colors = (...names: PaletteName[]): SeedColor[] =>
  names.map((name) => ({ name, value: paletteHex[name] }));

const tees = [...categorySizes.tshirts];
const hoodieSizes = [...categorySizes.hoodies];
const oneSize = ['One Size'];
const deckSizes = ['7.5"', '8.0"', '8.25"', '8.5"'];

export const seedCategories: SeedCategory[] = [
  {
    slug: 'tshirts',
    name: 'T-Shirts',
    description:
      'Heavyweight tees printed in runs of fifty and never again. Wear one and you are one of the few.',
    imageKey: 'category-tshirts',
  },
  {
    slug: 'hoodies',
    name: 'Hoodies',
    description: 'Dense fleece, loud graphics, zero restocks. Built for cold nights and long memories.',
    imageKey: 'category-hoodies',
  },
  {
    slug: 'accessories',
    name: 'Accessories',
    description:
      'Caps, beanies, bags and decks to finish the fit. Same rule as everything else: fifty made, then gone for good.',
    imageKey: 'category-accessories',
  },
];

export const seedProducts: SeedProduct[] = [
  // T-shirts
  {
    name: 'Concrete Bloom Tee',
    description:
      'A heavyweight tee for everything that grows through the cracks. Boxy shoulders, a dense 240 gsm body and a puff-print BLOOM across the chest that softens with every wash. Fifty made, then the screens get wiped.',
    price: '45.00',
    salePrice: null,
    category: 'tshirts',
    subcategory: 'Graphic Tees',
    materials: '100% organic cotton, 240 gsm heavyweight jersey',
    sustainabilityInfo:
      'GOTS-certified organic cotton and water-based inks, made to order in Portugal so nothing sits in a warehouse.',
    stock: 23,
    inStock: true,
    isNew: true,
    isOnSale: false,
    sizes: tees,
    colors: colors('Black', 'White', 'Sunset Orange', 'Forest Green', 'Ocean Blue'),
    art: { kind: 'tee', graphic: 'BLOOM' },
  },
  {
    name: 'Night Shift Tee',
    description:
      'Built for the hours when the city finally belongs to you. A garment-dyed tee with a tonal NO.50 chest print and a slightly dropped shoulder. Once these are gone, the night shift is over.',
    price: '42.00',
    salePrice: '34.00',
    category: 'tshirts',
    subcategory: 'Graphic Tees',
    materials: '100% combed organic cotton, 220 gsm, garment dyed',
    sustainabilityInfo:
      'Garment dyed in small batches with OEKO-TEX certified low-impact dyes and recycled process water.',
    stock: 7,
    inStock: true,
    isNew: false,
    isOnSale: true,
    sizes: tees,
    colors: colors('Midnight Black', 'Charcoal'),
    art: { kind: 'tee', graphic: 'NO.50' },
  },
  {
    name: 'Fifty Standard Tee',
    description:
      'The uniform: one clean chest hit and nothing to prove. Regular fit, a ribbed crew neck that holds its shape and a FIFTY wordmark screen printed by hand. The tee you reach for before you have decided what else to wear.',
    price: '38.00',
    salePrice: null,
    category: 'tshirts',
    subcategory: 'Essentials',
    materials: '100% organic cotton, 200 gsm single jersey',
    sustainabilityInfo:
      'Organic cotton grown without synthetic pesticides, printed with PVC-free water-based inks.',
    stock: 41,
    inStock: true,
    isNew: false,
    isOnSale: false,
    sizes: tees,
    colors: colors('White', 'Grey', 'Navy'),
    art: { kind: 'tee', graphic: 'FIFTY' },
  },
  {
    name: 'Overpass Long Sleeve',
    description:
      'A layer-ready long sleeve named after the best spot in town to watch the traffic crawl. Ribbed cuffs, a relaxed body and OVERPASS printed across the chest in bone-white ink. Cold mornings, sorted.',
    price: '58.00',
    salePrice: null,
    category: 'tshirts',
    subcategory: 'Long Sleeves',
    materials: '100% organic cotton, 230 gsm jersey, 1x1 rib cuffs',
    sustainabilityInfo:
      'Cut to order from organic cotton rolls, with offcuts recycled into our shipping mailers.',
    stock: 12,
    inStock: true,
    isNew: false,
    isOnSale: false,
    sizes: tees,
    colors: colors('Steel Grey', 'Black'),
    art: { kind: 'long-sleeve', graphic: 'OVERPASS' },
  },
  {
    name: 'Signal Loss Tee',
    description:
      'Fifty people went off-grid in this one, and it is not coming back. A washed ocean-blue tee with a NO SIGNAL print and a roomy, boxy cut. Sold out for good: we never reprint a design.',
    price: '44.00',
    salePrice: null,
    category: 'tshirts',
    subcategory: 'Graphic Tees',
    materials: '100% organic cotton, 240 gsm, enzyme washed',
    sustainabilityInfo:
      'Enzyme washed instead of stone washed, saving water and keeping pumice dust out of rivers.',
    stock: 0,
    inStock: false,
    isNew: false,
    isOnSale: false,
    sizes: tees,
    colors: colors('Ocean Blue', 'White'),
    art: { kind: 'tee', graphic: 'NO SIGNAL' },
  },
  {
    name: 'Rooftop Bamboo Tee',
    description:
      'The softest thing you will wear this summer, cut for heat that hangs around after dark. Bamboo-cotton jersey that breathes, drapes and never clings, with a small ROOFTOP chest print. Only a handful left.',
    price: '48.00',
    salePrice: null,
    category: 'tshirts',
    subcategory: 'Essentials',
    materials: '70% bamboo viscose, 30% organic cotton, 180 gsm',
    sustainabilityInfo:
      'FSC-certified bamboo processed in a closed loop that recovers over 99% of its solvents.',
    stock: 5,
    inStock: true,
    isNew: false,
    isOnSale: false,
    sizes: tees,
    colors: colors('Natural Bamboo', 'Forest Green'),
    art: { kind: 'tee', graphic: 'ROOFTOP' },
  },

  // Hoodies
  {
    name: 'Block Party Hoodie',
    description:
      'The hoodie that turns up early and leaves last. Brushed-back 400 gsm fleece, a double-layer hood and a FIFTY chest print in high-density ink. Heavy enough to feel like armour, soft enough to sleep in.',
    price: '95.00',
    salePrice: null,
    category: 'hoodies',
    subcategory: 'Pullover',
    materials: '80% organic cotton, 20% recycled polyester, 400 gsm brushed fleece',
    sustainabilityInfo:
      'Recycled polyester spun from post-consumer bottles; every piece is made to order, so there is no deadstock.',
    stock: 18,
    inStock: true,
    isNew: true,
    isOnSale: false,
    sizes: hoodieSizes,
    colors: colors('Black', 'Grey', 'Forest Green'),
    art: { kind: 'hoodie', graphic: 'FIFTY' },
  },
  {
    name: 'Low Tide Hoodie',
    description:
      'Coastal weight for grey mornings on the harbour wall. A deep navy pullover with LOW TIDE across the chest, a kangaroo pocket and ribbed cuffs that never give up. Nine left, and the tide is going out.',
    price: '98.00',
    salePrice: '78.00',
    category: 'hoodies',
    subcategory: 'Pullover',
    materials: '100% organic cotton loopback, 380 gsm',
    sustainabilityInfo: 'Unbrushed loopback knit sheds fewer microfibres in the wash than brushed fleece.',
    stock: 9,
    inStock: true,
    isNew: false,
    isOnSale: true,
    sizes: hoodieSizes,
    colors: colors('Navy', 'Ocean Blue'),
    art: { kind: 'hoodie', graphic: 'LOW TIDE' },
  },
  {
    name: 'Static Zip Hoodie',
    description:
      'A full-zip that cuts through the noise. Charcoal fleece, a two-way metal zip, split pockets and a small STATIC hit on the left chest. Zip it to the top and disappear.',
    price: '120.00',
    salePrice: null,
    category: 'hoodies',
    subcategory: 'Zip-Up',
    materials: '85% organic cotton, 15% recycled polyester, 420 gsm fleece, recycled brass zip',
    sustainabilityInfo: 'Zip cast from recycled brass; fabric dyed in a bluesign-approved mill.',
    stock: 14,
    inStock: true,
    isNew: false,
    isOnSale: false,
    sizes: hoodieSizes,
    colors: colors('Charcoal', 'Steel Grey'),
    art: { kind: 'zip-hoodie', graphic: 'STATIC' },
  },
  {
    name: 'Heavyweight Fifty Hoodie',
    description:
      'The flagship: the heaviest hoodie we have ever made, and the one we get asked about most. 500 gsm fleece, dropped shoulders, a boxy body and NO.50 printed dead centre. Three left, and when they are gone they are gone.',
    price: '140.00',
    salePrice: null,
    category: 'hoodies',
    subcategory: 'Pullover',
    materials: '100% organic cotton, 500 gsm double-face fleece',
    sustainabilityInfo:
      'Built to outlive trends: pre-shrunk fabric and bar-tacked stress points made to last a decade.',
    stock: 3,
    inStock: true,
    isNew: false,
    isOnSale: false,
    sizes: hoodieSizes,
    colors: colors('Midnight Black', 'White'),
    art: { kind: 'hoodie', graphic: 'NO.50' },
  },
  {
    name: 'Sunset Riot Hoodie',
    description:
      'Loud on purpose. A sunset-orange pullover with a bold RIOT chest print you can spot from the other side of the skatepark. Brushed fleece inside, bright ideas outside.',
    price: '105.00',
    salePrice: null,
    category: 'hoodies',
    subcategory: 'Pullover',
    materials: '80% organic cotton, 20% recycled polyester, 400 gsm brushed fleece',
    sustainabilityInfo:
      'Colour locked in with low-impact reactive dyes; dye-house water is treated and reused on site.',
    stock: 26,
    inStock: true,
    isNew: true,
    isOnSale: false,
    sizes: hoodieSizes,
    colors: colors('Sunset Orange', 'Black'),
    art: { kind: 'hoodie', graphic: 'RIOT' },
  },
  {
    name: 'Undercurrent Zip Hoodie',
    description:
      'Made for moving quietly through loud places. A forest-green full-zip with a FIFTY chest hit, a ribbed hem and a hood that actually stays up. Understated from across the room, unforgettable up close.',
    price: '128.00',
    salePrice: null,
    category: 'hoodies',
    subcategory: 'Zip-Up',
    materials: '100% organic cotton, 420 gsm brushed fleece, recycled-polyester zip tape',
    sustainabilityInfo:
      'Organic cotton fleece with a zip tape woven from recycled bottles; shipped plastic-free.',
    stock: 31,
    inStock: true,
    isNew: false,
    isOnSale: false,
    sizes: hoodieSizes,
    colors: colors('Forest Green', 'Navy'),
    art: { kind: 'zip-hoodie', graphic: 'FIFTY' },
  },

  // Accessories
  {
    name: 'Corner Store Cap',
    description:
      'Six panels, one number, zero explanations. A structured cap with an embroidered 50 on the front, tonal eyelets and an adjustable strap back. Fits most heads and every attitude.',
    price: '34.00',
    salePrice: null,
    category: 'accessories',
    subcategory: 'Caps',
    materials: '100% organic cotton twill, adjustable strap (21.5 to 24 in)',
    sustainabilityInfo:
      'Embroidered with recycled polyester thread; the brim board is made from recycled paper.',
    stock: 38,
    inStock: true,
    isNew: false,
    isOnSale: false,
    sizes: oneSize,
    colors: colors('Black', 'Navy', 'Sunset Orange'),
    art: { kind: 'cap', graphic: '50' },
  },
  {
    name: 'Cold Front Beanie',
    description:
      'For when the forecast turns and your plans do not. A chunky rib-knit beanie with a deep cuff and a woven FIFTY label. Stretch fit, one size, no bad hair days.',
    price: '28.00',
    salePrice: null,
    category: 'accessories',
    subcategory: 'Beanies',
    materials: '100% RWS-certified merino wool, chunky 2x2 rib',
    sustainabilityInfo:
      'Mulesing-free merino from certified farms, knitted to shape so there are no offcuts.',
    stock: 44,
    inStock: true,
    isNew: true,
    isOnSale: false,
    sizes: oneSize,
    colors: colors('Charcoal', 'Forest Green', 'Sunset Orange', 'Black'),
    art: { kind: 'beanie', graphic: 'FIFTY' },
  },
  {
    name: 'Daily Haul Tote',
    description:
      'The bag that carries the whole day, from the record shop to the last train home. Heavy canvas, long handles that sit on the shoulder and a framed FIFTY print. Holds more than your excuses.',
    price: '32.00',
    salePrice: null,
    category: 'accessories',
    subcategory: 'Bags',
    materials: '100% organic cotton canvas, 12 oz, 15 x 16 x 3 in',
    sustainabilityInfo:
      'The natural colourway is unbleached and undyed; reinforced handles keep it out of landfill for years.',
    stock: 27,
    inStock: true,
    isNew: false,
    isOnSale: false,
    sizes: oneSize,
    colors: colors('Natural Bamboo', 'Black'),
    art: { kind: 'tote', graphic: 'FIFTY' },
  },
  {
    name: 'Transit Backpack',
    description:
      'A daily carry that treats the commute like a mission. Weatherproof shell, padded laptop sleeve, a quick-access front pocket and a rubberised FIFTY patch. Eighteen inches of order in a chaotic day.',
    price: '160.00',
    salePrice: '128.00',
    category: 'accessories',
    subcategory: 'Bags',
    materials: 'Recycled nylon ripstop with water-repellent finish, 18 x 12 x 6 in, fits a 16 in laptop',
    sustainabilityInfo: 'Shell woven from recycled fishing nets, with a PFC-free water-repellent finish.',
    stock: 11,
    inStock: true,
    isNew: false,
    isOnSale: true,
    sizes: oneSize,
    colors: colors('Black', 'Steel Grey'),
    art: { kind: 'backpack', graphic: 'FIFTY' },
  },
  {
    name: 'Kerb Deck',
    description:
      'Seven plies of attitude, built to be ridden rather than hung on a wall. A medium-concave deck with a bold FIFTY graphic on the bottom and black grip already applied. Six left across all widths.',
    price: '85.00',
    salePrice: null,
    category: 'accessories',
    subcategory: 'Skate Decks',
    materials: '7-ply hard rock maple with a bamboo bottom veneer, medium concave, grip tape applied',
    sustainabilityInfo:
      'Maple from sustainably managed Great Lakes forests; pressing offcuts become our shop fittings.',
    stock: 6,
    inStock: true,
    isNew: false,
    isOnSale: false,
    sizes: deckSizes,
    colors: colors('Natural Bamboo', 'Black Stain'),
    art: { kind: 'deck', graphic: 'FIFTY' },
  },
  {
    name: 'Ground Control Socks',
    description:
      'Crew socks with a stripe of attitude, sold as a pair of pairs. Cushioned soles, ribbed cuffs, a reinforced heel and toe and FIFTY knitted into the leg. Fits US 7 to 12.',
    price: '28.00',
    salePrice: null,
    category: 'accessories',
    subcategory: 'Socks',
    materials: '75% organic cotton, 22% recycled polyamide, 3% elastane; two pairs per pack',
    sustainabilityInfo:
      'Recycled polyamide for strength, packed in a recycled-paper band with no plastic hooks.',
    stock: 50,
    inStock: true,
    isNew: false,
    isOnSale: false,
    sizes: oneSize,
    colors: colors('White', 'Black', 'Grey'),
    art: { kind: 'socks', graphic: 'FIFTY', accent: '#F26B38' },
  },
];

export const discountSeeds: DiscountSeed[] = [{ code: 'FALL15', discountPercent: 15, maxUsage: null }];

/** Flat-lays are capped at four colours; a product then has its close-up too (five images at most). */
export const MAX_SEED_IMAGES = 4;

export interface SeedImageJob {
  key: string;
  /** the colour the piece is drawn in */
  color: SeedColor;
  /** 'flat': the whole piece in this colour; 'detail': the close-up (collar, label, print) */
  view: 'flat' | 'detail';
  /** public path, `/uploads/seed/${key}.webp` */
  path: string;
}

/**
 * The images a product gets, with stable keys so re-seeding overwrites rather than accumulates:
 * the first colour's flat-lay (cards and the page open on it), the close-up (the card's second image),
 * then a flat-lay per other colour. A flat-lay's file is named `<product>-<colour>`, which is how
 * imageForColor (common/domain/color-image.ts) finds a cart line's colour.
 */
export function seedImageJobs(product: SeedProduct): SeedImageJob[] {
  const name = imageSlug(product.name);
  const flats = product.colors.slice(0, MAX_SEED_IMAGES).map((color): SeedImageJob => {
    const key = `${name}-${imageSlug(color.name)}`;
    return { key, color, view: 'flat', path: `/uploads/seed/${key}.webp` };
  });
  if (flats.length === 0) return [];
  const detailKey = `${name}-detail`;
  const detail: SeedImageJob = { key: detailKey, color: flats[0]!.color, view: 'detail', path: `/uploads/seed/${detailKey}.webp` };
  return [flats[0]!, detail, ...flats.slice(1)];
}

export function seedProductImages(product: SeedProduct): string[] {
  return seedImageJobs(product).map((j) => j.path);
}
