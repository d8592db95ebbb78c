// The one statement of the return terms (docs/product.md, Refund Policy): the product page's assurance,
// the refund policy page and its description all say these figures, so they cannot disagree.

export const RETURN_POLICY = {
  /** Days after receipt to request a return by e-mail. */
  requestDays: 2,
  /** Days after approval to ship it back. */
  shipBackDays: 7,
} as const;

/**
 * The product page's assurance. Its title is the spec's exact copy ('30-day return policy'; the spec fixes
 * both this and the refund policy's 2/7 days, ADR 014); the line under it states the actual terms from
 * RETURN_POLICY so the page never promises more than the policy gives.
 */
export const returnAssurance = {
  title: '30-day return policy',
  detail: `Request within ${RETURN_POLICY.requestDays} days of receipt; unworn, with tags. See the refund policy`,
} as const;

/** A piece marked non-returnable at listing (the refund policy): the product page says so instead of the assurance. */
export const FINAL_SALE_LINE = "Final sale: this piece can't be returned.";

/**
 * A sold-out piece is never produced again, but a piece returned within the return window goes back on sale
 * (to the line during a drop), which is what 'Notify me' waits for. The line that says so names the
 * product's own edition: common/domain/edition-copy.ts editionRestockText.
 */
export const restockCopy = {
  notifyLabel: 'Notify me if one comes back',
} as const;
