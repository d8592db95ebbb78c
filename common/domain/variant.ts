// Which size and colour an order line carries: the one rule the server's cart enforces and the
// storefront's pickers follow (docs/product.md §4; DESIGN.md, "Sizes"). An order line says what to
// make: a size is required when the product has sizes, a colour when it has colours; each must be one
// the product offers; when there is exactly one, it is chosen for the shopper.

export interface VariantColor {
  name: string;
  /** CSS colour; a line may name the colour by it too (stored by name). */
  value: string;
}

/** The fields the rule reads; callers pass whole products. */
export interface VariantProduct {
  name: string;
  sizes: readonly string[];
  colors: readonly VariantColor[];
}

export interface VariantChoice {
  size?: string | null;
  color?: string | null;
}

export interface ResolvedVariant {
  /** The product's own spelling of the size, or null when it has no sizes. */
  size: string | null;
  /** The colour's name, or null when the product has no colours. */
  color: string | null;
}

export type VariantResult =
  | ({ ok: true } & ResolvedVariant)
  | { ok: false; field: 'size' | 'color'; message: string };

const blankToNull = (v: string | null | undefined): string | null => (v && v.trim() ? v.trim() : null);

/** The size and colour that need no choice: the only one when a product offers exactly one. */
export function variantDefaults(product: Pick<VariantProduct, 'sizes' | 'colors'>): ResolvedVariant {
  return {
    size: product.sizes.length === 1 ? product.sizes[0]! : null,
    color: product.colors.length === 1 ? product.colors[0]!.name : null,
  };
}

/**
 * The variant a line may have, or why not (the message the shopper sees). Sizes match case-insensitively;
 * a colour may be named by its name or its CSS value. Blank choices count as none.
 */
export function resolveVariant(product: VariantProduct, choice: VariantChoice): VariantResult {
  const defaults = variantDefaults(product);
  const size = blankToNull(choice.size);
  const color = blankToNull(choice.color);

  let resolvedSize: string | null;
  if (product.sizes.length === 0) {
    if (size) return { ok: false, field: 'size', message: `Size ${size} is not available for ${product.name}` };
    resolvedSize = null;
  } else if (!size) {
    if (!defaults.size) return { ok: false, field: 'size', message: 'Please select a size' };
    resolvedSize = defaults.size;
  } else {
    const wanted = size.toLowerCase();
    const found = product.sizes.find((s) => s.toLowerCase() === wanted);
    if (!found) return { ok: false, field: 'size', message: `Size ${size} is not available for ${product.name}` };
    resolvedSize = found;
  }

  let resolvedColor: string | null;
  if (!color) {
    if (product.colors.length > 1) return { ok: false, field: 'color', message: 'Please select a colour' };
    resolvedColor = defaults.color;
  } else {
    const wanted = color.toLowerCase();
    const found = product.colors.find((c) => c.name.toLowerCase() === wanted || c.value.toLowerCase() === wanted);
    if (!found) return { ok: false, field: 'color', message: `Colour ${color} is not available for ${product.name}` };
    resolvedColor = found.name;
  }

  return { ok: true, size: resolvedSize, color: resolvedColor };
}

/** What a line carries, in the names every line type uses (cart line, order line, checkout line). */
export interface LineOptions {
  selectedSize: string | null;
  selectedColor: string | null;
  quantity?: number;
}

/**
 * "Size: M · Color: Black" (and " · Qty: 2" when asked): the one wording of a line's options on the
 * cart, checkout summary, order page, order e-mail and admin. Absent parts are left out.
 */
export function formatLineOptions(line: LineOptions, opts: { quantity?: boolean } = {}): string {
  return [
    line.selectedSize && `Size: ${line.selectedSize}`,
    line.selectedColor && `Color: ${line.selectedColor}`,
    opts.quantity && line.quantity !== undefined && `Qty: ${line.quantity}`,
  ]
    .filter(Boolean)
    .join(' · ');
}

/** "M, Black": the short form inside brackets ("Hoodie (M, Black)") in toasts and the orders CSV. */
export function formatLineOptionsShort(line: Pick<LineOptions, 'selectedSize' | 'selectedColor'>): string {
  return [line.selectedSize, line.selectedColor].filter(Boolean).join(', ');
}
