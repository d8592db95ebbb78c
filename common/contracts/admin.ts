import { z } from 'zod';
import { safeString } from './safe-string';
import { formatMoney, parseMoney } from '../domain/money';
import { MAX_MAX_PER_SHOPPER, MIN_MAX_PER_SHOPPER } from '../domain/purchase-limit';
import { MAX_SIZES } from '../domain/size-run';
import { categorySizes, productSchema } from './catalog';
import { orderSchema, orderStatusSchema } from './checkout';

// ---------------------------------------------------------------------------------------------
// Access: POST /api/admin/login, POST /api/admin/logout, GET /api/admin/status
// ---------------------------------------------------------------------------------------------

export const adminLoginBody = z.object({
  password: z
    .string({ message: 'Password is required' })
    .min(1, { message: 'Password is required' })
    .max(1000),
});
export type AdminLoginBody = z.infer<typeof adminLoginBody>;

export const adminStatusSchema = z.object({ isAuthenticated: z.boolean() });
export type AdminStatus = z.infer<typeof adminStatusSchema>;

/** Answer of login, logout, delete and other writes without a richer result. */
export const adminSuccessSchema = z.object({ success: z.literal(true) });
export type AdminSuccess = z.infer<typeof adminSuccessSchema>;

/** The admin session ends after this long without an admin request… */
export const ADMIN_IDLE_TIMEOUT_MS = 2 * 60 * 60 * 1000;
/** …and this long after login however active it is. */
export const ADMIN_SESSION_MAX_AGE_MS = 8 * 60 * 60 * 1000;

// ---------------------------------------------------------------------------------------------
// Products: GET/POST /api/admin/products, PUT/DELETE /api/admin/products/:id
// ---------------------------------------------------------------------------------------------

export const MAX_STOCK = 1_000_000;
export const MAX_PRICE = '99999999.99';
/** The admin product list marks products with this many units or fewer as low stock. */
export const LOW_STOCK_THRESHOLD = 5;

/**
 * docs/product.md §3 admin colour palette (the spec names the colours; the hex values are ours).
 * The form offers these; the server accepts any {name, value: "#RRGGBB"}.
 */
export const adminColorPalette: ReadonlyArray<{ name: string; value: string }> = [
  { name: 'Black', value: '#111111' },
  { name: 'White', value: '#FFFFFF' },
  { name: 'Grey', value: '#9CA3AF' },
  { name: 'Charcoal', value: '#36454F' },
  { name: 'Navy', value: '#1F2A44' },
  { name: 'Forest Green', value: '#228B22' },
  { name: 'Ocean Blue', value: '#1D6FA3' },
  { name: 'Sunset Orange', value: '#FD5E53' },
  { name: 'Steel Grey', value: '#71797E' },
  { name: 'Midnight Black', value: '#0B0B12' },
  { name: 'Natural Bamboo', value: '#DAC08E' },
  { name: 'Black Stain', value: '#2B2118' },
];

/** "45", "45.5", 45.5 → "45.50"; refuses ≤ 0, more than 2 decimals and more than 99999999.99. */
function moneyInput(label: string) {
  return z.union([safeString(), z.number()], { message: `${label} must be a number` }).transform((raw, ctx) => {
    const text = typeof raw === 'number' ? String(raw) : raw.trim();
    if (text === '') {
      ctx.addIssue({ code: 'custom', message: `${label} is required` });
      return z.NEVER;
    }
    if (!/^[-+]?\d+(\.\d+)?$/.test(text)) {
      ctx.addIssue({ code: 'custom', message: `${label} must be a number` });
      return z.NEVER;
    }
    if (Number(text) <= 0) {
      ctx.addIssue({ code: 'custom', message: `${label} must be greater than 0` });
      return z.NEVER;
    }
    if (/\.\d{3,}$/.test(text)) {
      ctx.addIssue({ code: 'custom', message: `${label} can have at most 2 decimals` });
      return z.NEVER;
    }
    if (!/^\+?\d{1,8}(\.\d{1,2})?$/.test(text.replace(/^\+?0+(?=\d)/, ''))) {
      ctx.addIssue({ code: 'custom', message: `${label} cannot be more than ${MAX_PRICE}` });
      return z.NEVER;
    }
    return formatMoney(parseMoney(text.replace(/^\+/, '').replace(/^0+(?=\d)/, '')));
  });
}

const requiredText = (label: string, max: number) =>
  z
    .string({ message: `${label} is required` })
    .trim()
    .min(1, { message: `${label} is required` })
    .max(max, { message: `${label} must be at most ${max} characters` });

/** Our own storage only: a local upload path or (validated by the server) the S3 public URL prefix. */
export const productImageSchema = z
  .string({ message: 'Images must be paths from our own storage' })
  .trim()
  .max(1000)
  .refine(
    (v) =>
      (/^\/uploads\/[A-Za-z0-9][A-Za-z0-9/_.-]*$/.test(v) && !v.includes('..') && !v.includes('//')) ||
      /^https?:\/\/[^\s"'<>\\]+$/.test(v),
    { message: 'Images must be paths from our own storage' },
  );

export const hexColorSchema = z
  .string({ message: 'Colour value must be a hex colour like #1A2B3C' })
  .trim()
  .regex(/^#[0-9A-Fa-f]{6}$/, { message: 'Colour value must be a hex colour like #1A2B3C' });

/** `{name, value}`; `{name, hex}` is accepted as a synonym for value. */
export const productColorInput = z.preprocess(
  (v) => {
    if (v && typeof v === 'object' && !('value' in v) && 'hex' in v) {
      const { hex, ...rest } = v as { hex: unknown };
      return { ...rest, value: hex };
    }
    return v;
  },
  z.object({
    name: requiredText('Colour name', 50),
    value: hexColorSchema,
  }),
);

const stockInput = z
  .union(
    [
      z.number(),
      z
        .string()
        .trim()
        .regex(/^-?\d+(\.\d+)?$/)
        .transform(Number),
    ],
    {
      message: 'Stock must be a whole number from 0 to 1,000,000',
    },
  )
  .pipe(
    z
      .number()
      .int({ message: 'Stock must be a whole number from 0 to 1,000,000' })
      .min(0, { message: 'Stock must be a whole number from 0 to 1,000,000' })
      .max(MAX_STOCK, { message: 'Stock must be a whole number from 0 to 1,000,000' }),
  );

export const MAX_EDITION_SIZE = 10_000;
const editionMessage = `Edition size must be a whole number from 1 to ${MAX_EDITION_SIZE.toLocaleString('en-US')}`;
/** Pieces in the edition ("No. 17 of 50"); left out on an update, the product keeps its own. */
const editionSizeInput = z
  .union([z.number(), safeString().trim().regex(/^\d+$/).transform(Number)], { message: editionMessage })
  .pipe(
    z
      .number()
      .int({ message: editionMessage })
      .min(1, { message: editionMessage })
      .max(MAX_EDITION_SIZE, { message: editionMessage }),
  )
  .optional();

const limitMessage = `Limit per shopper must be a whole number from ${MIN_MAX_PER_SHOPPER} to ${MAX_MAX_PER_SHOPPER}`;
/** Units one shopper may buy (docs/product.md §9, Per-shopper limits); left out, a new product gets the default and an update keeps its own. */
const maxPerShopperInput = z
  .union([z.number(), safeString().trim().regex(/^\d+$/).transform(Number)], { message: limitMessage })
  .pipe(
    z
      .number()
      .int({ message: limitMessage })
      .min(MIN_MAX_PER_SHOPPER, { message: limitMessage })
      .max(MAX_MAX_PER_SHOPPER, { message: limitMessage }),
  )
  .optional();

/**
 * One size of a size run (ADR 015): the label, a colour only where colours are stocked apart, and its
 * pieces. The run as a whole (labels unique, pieces adding up to the edition) is checked by the server with
 * common/domain/size-run.ts validateSizeRun, which also words the form's inline check.
 */
export const sizeRunEntryInput = z.object({
  size: safeString({ message: 'Enter a size.' }).max(100, { message: 'A size is at most 20 characters.' }),
  colour: z.union([z.null(), safeString().trim().max(50, { message: 'A colour is at most 50 characters.' })]).optional(),
  pieces: z.number({ message: 'Pieces must be a whole number, 0 or more.' }),
});
/** A size run as sent: a few more entries than allowed still parse, so the answer names the real limit. */
export const sizeRunInput = z
  .array(sizeRunEntryInput, { message: 'The size run must be a list of sizes' })
  .max(MAX_SIZES * 4, { message: `A run has at most ${MAX_SIZES} sizes.` });

const nullableText = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .nullish()
    .transform((v) => (v ? v : null));

/**
 * The product form's payload (docs/product.md §7), used by the form and the server alike. Unknown fields are
 * dropped. The server also checks that the category exists and that images are our own storage's.
 */
export const productPayloadSchema = z
  .object({
    name: requiredText('Name', 200),
    description: requiredText('Description', 5000),
    price: moneyInput('Price'),
    salePrice: z
      .union([z.literal(''), z.null(), moneyInput('Sale price')])
      .optional()
      .transform((v) => (v ? v : null)),
    category: requiredText('Category', 100),
    subcategory: nullableText(100),
    materials: requiredText('Materials', 500),
    sustainabilityInfo: requiredText('Sustainability info', 2000),
    stock: stockInput,
    editionSize: editionSizeInput,
    maxPerShopper: maxPerShopperInput,
    inStock: z.boolean({ message: 'inStock must be true or false' }).default(true),
    /** Scheduled release: an instant with its offset (the form sends UTC); empty or null: on sale now. */
    releaseAt: z
      .union([z.literal(''), z.null(), z.string().datetime({ offset: true, message: 'Release time must be a date and time' })])
      .optional()
      .transform((v) => (v ? new Date(v) : null)),
    isNew: z.boolean({ message: 'isNew must be true or false' }).default(false),
    isOnSale: z.boolean({ message: 'isOnSale must be true or false' }).default(false),
    /** A final sale (the refund policy's "non-returnable items marked at listing"). */
    nonReturnable: z.boolean({ message: 'nonReturnable must be true or false' }).default(false),
    images: z.array(productImageSchema).max(20, { message: 'At most 20 images' }).default([]),
    sizes: z
      .array(safeString().trim().min(1).max(20))
      .max(20)
      .default([])
      .transform((list) => [...new Set(list)]),
    colors: z
      .array(productColorInput)
      .max(30, { message: 'At most 30 colours' })
      .default([])
      // Adding an already-present colour is ignored (docs/product.md §4).
      .transform((list) => list.filter((c, i) => list.findIndex((o) => o.name === c.name) === i)),
    /**
     * The pieces per size, adding up to the edition (ADR 015). Given, it sets the product's stock (the sum
     * of its sizes' left pieces) and its `sizes` (the run's labels, free entry allowed); left out, the
     * product keeps its run (or its one pool).
     */
    sizeRun: sizeRunInput.optional(),
  })
  .superRefine((p, ctx) => {
    if (p.salePrice !== null && parseMoney(p.salePrice) >= parseMoney(p.price)) {
      ctx.addIssue({ code: 'custom', path: ['salePrice'], message: 'Sale price must be below the price' });
    }
    // A size run names its own sizes (free entry): the category's list is only its preset.
    if (p.sizeRun) return;
    const allowed = categorySizes[p.category] ?? [];
    const stray = p.sizes.filter((s) => !allowed.includes(s));
    if (stray.length > 0) {
      ctx.addIssue({
        code: 'custom',
        path: ['sizes'],
        message: allowed.length
          ? `Sizes must come from the category's list (${allowed.join(', ')}): ${stray.join(', ')} is not`
          : `This category has no sizes: ${stray.join(', ')} is not allowed`,
      });
    }
  });
/** What the form sends (before parsing: numbers or strings for price and stock). */
export type ProductPayloadInput = z.input<typeof productPayloadSchema>;
/** What the server stores (after parsing: canonical "45.00" strings, integer stock). */
export type ProductPayload = z.output<typeof productPayloadSchema>;

const uuidSchema = safeString().uuid();
export const isUuid = (value: string): boolean => uuidSchema.safeParse(value).success;

/** Ids are checked by the server: an id that is not a uuid is simply not found (404). */
export const adminProductIdParams = z.object({ id: safeString().max(100) });
/**
 * One row of a product's size run as the owner sees it: its pieces (left + held + sold) and where they are.
 * `size` null is the old "one run": on a split product it keeps the pieces held or sold before the split
 * ("sold before sizes", read-only).
 */
export const adminSizeSchema = z.object({
  size: safeString().nullable(),
  colour: safeString().nullable(),
  pieces: z.number().int(),
  left: z.number().int(),
  held: z.number().int(),
  sold: z.number().int(),
  /** When this size's last piece sold (ISO 8601); null while any is left or held. */
  soldOutAt: safeString().nullable(),
});
export type AdminSize = z.infer<typeof adminSizeSchema>;

/**
 * GET /api/admin/products: every product, sold out included, with exact stock, and its size run: empty
 * while the edition is one pool (not split into sizes).
 */
export const adminProductSchema = productSchema.extend({ sizeRun: z.array(adminSizeSchema) });
export type AdminProduct = z.infer<typeof adminProductSchema>;
export const adminProductListSchema = z.array(adminProductSchema);

// ---------------------------------------------------------------------------------------------
// Orders: GET /api/admin/orders?status=&q=, PUT /api/admin/orders/:orderId/status, GET /api/admin/orders.csv
// ---------------------------------------------------------------------------------------------

export const adminOrdersQuery = z.object({
  status: z
    .union([z.literal(''), z.enum(orderStatusSchema.options)], { message: 'Invalid order status' })
    .optional()
    .transform((v) => (v ? v : undefined)),
  /** Matches the order number or the customer's e-mail (case-insensitive, partial). */
  q: z
    .string()
    .trim()
    .max(200)
    .optional()
    .transform((v) => (v ? v : undefined)),
  /** "1": only orders not yet shipped and past their ship-by date (common/domain/ship-by.ts). */
  late: z
    .enum(['', '0', '1'], { message: 'late must be 1 or 0' })
    .optional()
    .transform((v) => v === '1' || undefined),
});
export type AdminOrdersQuery = z.infer<typeof adminOrdersQuery>;

export const adminOrderIdParams = z.object({ orderId: safeString().max(100) });

/** Carriers the admin offers; the "shipped" e-mail links to the carrier's tracking page ("other": no link). */
export const CARRIERS = ['usps', 'ups', 'fedex', 'dhl', 'other'] as const;
export type Carrier = (typeof CARRIERS)[number];
export const CARRIER_LABELS: Record<Carrier, string> = { usps: 'USPS', ups: 'UPS', fedex: 'FedEx', dhl: 'DHL', other: 'Other' };

const orderStatusField = z.enum(orderStatusSchema.options, {
  message: `Invalid order status: use one of ${orderStatusSchema.options.join(', ')}`,
});
export const orderStatusBody = z.object({
  status: orderStatusField,
  /** Optional on any change; kept when left out, cleared with "" or null. */
  trackingNumber: z
    .union([z.null(), safeString().trim().max(100, { message: 'Tracking number must be at most 100 characters' })])
    .transform((v) => (v ? v : null))
    .optional(),
  carrier: z
    .union([z.null(), z.literal(''), z.enum(CARRIERS, { message: `Carrier must be one of ${CARRIERS.join(', ')}` })])
    .transform((v) => (v ? v : null))
    .optional(),
});
export type OrderStatusBody = z.infer<typeof orderStatusBody>;
export const adminOrderSchema = orderSchema;
export type AdminOrder = z.infer<typeof adminOrderSchema>;
export const adminOrderListSchema = z.array(adminOrderSchema);

/** GET /api/admin/orders/page: the filters of GET /api/admin/orders plus a page (newest first). */
export const ADMIN_ORDERS_PAGE_SIZE = 20;
export const adminOrdersPageQuery = adminOrdersQuery.extend({
  limit: z.coerce
    .number({ message: 'limit must be a whole number from 1 to 100' })
    .int({ message: 'limit must be a whole number from 1 to 100' })
    .min(1, { message: 'limit must be a whole number from 1 to 100' })
    .max(100, { message: 'limit must be a whole number from 1 to 100' })
    .default(ADMIN_ORDERS_PAGE_SIZE),
  offset: z.coerce
    .number({ message: 'offset must be a whole number of 0 or more' })
    .int({ message: 'offset must be a whole number of 0 or more' })
    .min(0, { message: 'offset must be a whole number of 0 or more' })
    .max(10_000_000, { message: 'offset must be a whole number of 0 or more' })
    .default(0),
});
export type AdminOrdersPageQuery = z.infer<typeof adminOrdersPageQuery>;
export const adminOrderPageSchema = z.object({
  orders: adminOrderListSchema,
  /** Orders matching the filters, over all pages. */
  total: z.number().int(),
  limit: z.number().int(),
  offset: z.number().int(),
});
export type AdminOrderPage = z.infer<typeof adminOrderPageSchema>;

/** POST /api/admin/orders/bulk-status: one status for the selected orders, in one transaction. */
export const bulkOrderStatusBody = z.object({
  orderIds: z
    .array(safeString().uuid({ message: 'Invalid order id' }), { message: 'Select at least one order' })
    .min(1, { message: 'Select at least one order' })
    .max(200, { message: 'At most 200 orders at once' }),
  status: orderStatusField,
  /**
   * For "shipped": each selected order's carrier and number (the shipped e-mail carries them). An order
   * without one here or already on it makes the whole change a 400 naming it.
   */
  tracking: z
    .array(
      z.object({
        orderId: safeString().uuid({ message: 'Invalid order id' }),
        trackingNumber: safeString()
          .trim()
          .min(1, { message: 'Tracking number is required' })
          .max(100, { message: 'Tracking number must be at most 100 characters' }),
        carrier: z.enum(CARRIERS, { message: `Carrier must be one of ${CARRIERS.join(', ')}` }),
      }),
    )
    .max(200, { message: 'At most 200 orders at once' })
    .optional(),
});
export type BulkOrderStatusBody = z.infer<typeof bulkOrderStatusBody>;
export const BULK_SHIP_NEEDS_TRACKING = (orderNumbers: readonly string[]) =>
  `Add a tracking number before marking shipped: ${orderNumbers.join(', ')}`;
export const bulkOrderStatusResult = z.object({ updated: z.number().int() });

/**
 * PATCH /api/admin/products/:id: only the fields the owner changed (checked with the product's other
 * fields by productPayloadSchema). With `stock`, `expectedStock` is the number the form showed: when the
 * stock moved since (a sale), the answer is 409 stockConflictSchema and nothing is written.
 */
export const productPatchBody = z.looseObject({
  expectedStock: z.number({ message: 'expectedStock must be a whole number' }).int().min(0).optional(),
});
export const stockConflictSchema = z.object({ message: safeString(), currentStock: z.number().int() });
export type StockConflict = z.infer<typeof stockConflictSchema>;

// ---------------------------------------------------------------------------------------------
// Notify-me demand: GET /api/admin/notify-demand, GET /api/admin/notify-demand/:id(/signups.csv)
// ---------------------------------------------------------------------------------------------

export const notifyDemandSchema = z.array(
  z.object({ productId: safeString().uuid(), productName: safeString(), count: z.number().int() }),
);
export type NotifyDemand = z.infer<typeof notifyDemandSchema>;
export const notifySignupListSchema = z.array(
  z.object({ email: safeString(), kind: safeString(), createdAt: safeString(), notifiedAt: safeString().nullable() }),
);
export type NotifySignupList = z.infer<typeof notifySignupListSchema>;

// ---------------------------------------------------------------------------------------------
// Newsletter: GET /api/admin/newsletter-signups, GET /api/admin/newsletter-signups.csv
// ---------------------------------------------------------------------------------------------

export const newsletterSignupSchema = z.object({
  id: safeString().uuid(),
  email: safeString(),
  /** ISO time; `subscribed_at` repeats it under the spec's name for admin lists. */
  subscribedAt: safeString(),
  subscribed_at: safeString(),
});
export type NewsletterSignup = z.infer<typeof newsletterSignupSchema>;
export const newsletterSignupListSchema = z.array(newsletterSignupSchema);

// ---------------------------------------------------------------------------------------------
// Discount codes: GET/POST /api/admin/discount-codes, PUT /api/admin/discount-codes/:id
// ---------------------------------------------------------------------------------------------

export const discountCodeSchema = z.object({
  id: safeString().uuid(),
  code: safeString(),
  discountPercent: z.number().int(),
  isActive: z.boolean(),
  usageCount: z.number().int(),
  /** null = unlimited uses. */
  maxUsage: z.number().int().nullable(),
  createdAt: safeString(),
  expiresAt: safeString().nullable(),
});
export type DiscountCode = z.infer<typeof discountCodeSchema>;
export const discountCodeListSchema = z.array(discountCodeSchema);

const expiresAtInput = z
  .union([z.literal(''), z.null(), safeString().trim()])
  .optional()
  .transform((v, ctx) => {
    if (!v) return null;
    // A bare date (an <input type="date">) means the end of that day, UTC.
    const iso = /^\d{4}-\d{2}-\d{2}$/.test(v) ? `${v}T23:59:59.999Z` : v;
    const valid = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})?$/.test(iso);
    const time = Date.parse(iso);
    if (!valid || Number.isNaN(time)) {
      ctx.addIssue({ code: 'custom', message: 'Expiry must be an ISO date or date-time' });
      return z.NEVER;
    }
    return new Date(time).toISOString();
  });

export const discountCodeCreateBody = z.object({
  code: z
    .string({ message: 'Code is required' })
    .trim()
    .toUpperCase()
    .regex(/^[A-Z0-9_-]{3,32}$/, { message: 'Code must be 3–32 letters, digits, - or _' }),
  discountPercent: z
    .number({ message: 'Discount percent must be a whole number from 1 to 100' })
    .int({ message: 'Discount percent must be a whole number from 1 to 100' })
    .min(1, { message: 'Discount percent must be a whole number from 1 to 100' })
    .max(100, { message: 'Discount percent must be a whole number from 1 to 100' }),
  /** Omitted → 1 (single use, docs/product.md §3 default); null → unlimited. */
  maxUsage: z
    .number({ message: 'Maximum uses must be a positive whole number or empty for unlimited' })
    .int({ message: 'Maximum uses must be a positive whole number or empty for unlimited' })
    .positive({ message: 'Maximum uses must be a positive whole number or empty for unlimited' })
    .max(1_000_000, { message: 'Maximum uses must be a positive whole number or empty for unlimited' })
    .nullable()
    .default(1),
  /** ISO date-time or YYYY-MM-DD (end of that day, UTC); null/omitted → never expires. */
  expiresAt: expiresAtInput,
});
export type DiscountCodeCreateInput = z.input<typeof discountCodeCreateBody>;
export type DiscountCodeCreate = z.output<typeof discountCodeCreateBody>;

export const discountCodeIdParams = z.object({ id: safeString().max(100) });
export const discountCodeUpdateBody = z.object({
  isActive: z.boolean({ message: 'isActive must be true or false' }),
});

// ---------------------------------------------------------------------------------------------
// Images: POST /api/admin/images/upload-url, PUT <uploadURL>, POST /api/admin/images/normalize
// ---------------------------------------------------------------------------------------------

/** Largest upload accepted (bytes) and largest image (pixels). */
export const MAX_UPLOAD_BYTES = 10 * 1024 * 1024;
export const MAX_IMAGE_PIXELS = 40_000_000;
export const UPLOAD_URL_TTL_MS = 15 * 60 * 1000;
/** Accepted by type sniffing of the bytes; the PUT's content type may be any of these or octet-stream. */
export const ACCEPTED_IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/webp', 'image/avif'] as const;
/**
 * Widths of the WebP variants: `<key>.webp` is at most 1600 wide, `<key>-800.webp` and
 * `<key>-400.webp` are the smaller ones the storefront's srcset uses.
 */
export const IMAGE_VARIANT_WIDTHS = [1600, 800, 400] as const;

/**
 * Optional body of POST /api/admin/images/upload-url. When given, the file's type and exact size are
 * bound into the upload URL (a PUT with another type or size is refused); the spec's client sends none.
 */
export const uploadUrlBody = z.object({
  contentType: z
    .enum(ACCEPTED_IMAGE_TYPES, { message: 'Only JPEG, PNG, WebP or AVIF images can be uploaded' })
    .optional(),
  size: z
    .number()
    .int()
    .positive()
    .max(MAX_UPLOAD_BYTES, { message: 'Images can be at most 10 MB' })
    .optional(),
});
export type UploadUrlBody = z.infer<typeof uploadUrlBody>;

export const uploadUrlResultSchema = z.object({
  /** PUT the raw file here with its content type (same-origin path locally, presigned URL on S3). */
  uploadURL: safeString(),
  method: z.literal('PUT'),
  maxBytes: z.number().int(),
  expiresAt: safeString(),
});
export type UploadUrlResult = z.infer<typeof uploadUrlResultSchema>;

export const normalizeImageBody = z.object({
  imageUrl: z
    .string({ message: 'imageUrl is required' })
    .trim()
    .min(1, { message: 'imageUrl is required' })
    .max(2000),
});
export const normalizeImageResultSchema = z.object({ normalizedPath: safeString() });
export type NormalizeImageResult = z.infer<typeof normalizeImageResultSchema>;
