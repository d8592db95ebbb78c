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
