// The product page's limited-edition copy, from the product's own edition size (1 to the maximum, docs/product.md
// §9 Edition numbers). The spec's words are for the default edition of 50 and stay exactly so:
// 'LIMITED EDITION - Only 50 Made' and 'Only 50 pieces will ever be made'.

/** 10000 → '10,000': the same on the server and in every browser (no locale in play). */
function groupThousands(n: number): string {
  return String(Math.trunc(n)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/** The badge: 'LIMITED EDITION - Only 50 Made'. */
export function editionBadgeText(editionSize: number): string {
  return `LIMITED EDITION - Only ${groupThousands(editionSize)} Made`;
}

/** The warning box: 'Only 50 pieces will ever be made' ('Only 1 piece …' for a one-off). */
export function editionNoticeText(editionSize: number): string {
  return `Only ${groupThousands(editionSize)} ${editionSize === 1 ? 'piece' : 'pieces'} will ever be made`;
}

/**
 * The warning box's second line: what 'never reproduced' means for this edition ('Once all 3 are made, …';
 * a one-off: 'Once it is made, …'), and that a returned piece can come back on sale (what 'Notify me' waits for).
 */
export function editionRestockText(editionSize: number): string {
  const once = editionSize === 1 ? 'Once it is made' : `Once all ${groupThousands(editionSize)} are made`;
  return `Each piece is made to order and numbered. ${once}, this design is never produced again. A returned piece can come back on sale.`;
}

/** The drop mails' line: 'Only 50 pieces will ever be made; once they are gone, the design is retired for good.' */
export function editionRetiredText(editionSize: number): string {
  const gone = editionSize === 1 ? 'once it is gone' : 'once they are gone';
  return `${editionNoticeText(editionSize)}; ${gone}, the design is retired for good.`;
}

/** A drop's edition in a list (/drops, a drop card): '50 pieces', '1 piece'. */
export function editionPiecesText(editionSize: number): string {
  return `${groupThousands(editionSize)} ${editionSize === 1 ? 'piece' : 'pieces'}`;
}

/** The editions of a list of drops, for a sentence about them: '50 pieces', '3 to 50 pieces'; null for none. */
export function editionRangeText(editionSizes: readonly number[]): string | null {
  if (editionSizes.length === 0) return null;
  const least = Math.min(...editionSizes);
  const most = Math.max(...editionSizes);
  return least === most ? editionPiecesText(least) : `${groupThousands(least)} to ${editionPiecesText(most)}`;
}
