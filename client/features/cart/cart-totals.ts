// Prices, totals and the threshold's wording are common/domain rules (pricing, shipping): the
// cart drawer only words the count.

/** '1 item' / 'N items'. */
export function itemCountLabel(count: number): string {
  return count === 1 ? '1 item' : `${count} items`;
}
