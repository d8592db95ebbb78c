/** Index arithmetic for carousels that wrap both ways (docs/product.md §4): -1 → last, n → 0. */
export function wrapIndex(index: number, count: number): number {
  if (count <= 0) return 0;
  return ((index % count) + count) % count;
}
