import type { ProductColor } from '../../../common/contracts/catalog';

/** docs/product.md §4: adding a colour that is already present is ignored. */
export function addColour(colours: readonly ProductColor[], colour: ProductColor): ProductColor[] {
  if (colours.some((c) => c.name === colour.name)) return [...colours];
  return [...colours, colour];
}

export function removeColour(colours: readonly ProductColor[], name: string): ProductColor[] {
  return colours.filter((c) => c.name !== name);
}
