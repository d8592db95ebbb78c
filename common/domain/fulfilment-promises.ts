// The shipping page's fulfilment promises as rules (docs/product.md, "Fulfilment promises"): the admin's
// order card, the pick list, the CSV, the buyer's order page, checkout and draw entry all ask these.

/** Orders over this total (integer cents) ship with a signature (the shipping page: "Signature required over $200"). */
export const SIGNATURE_THRESHOLD_CENTS = 20_000;
export const SIGNATURE_REQUIRED_LABEL = 'Signature required';

/** Over $200, never at exactly $200.00. */
export function needsSignature(totalCents: number): boolean {
  return Number.isInteger(totalCents) && totalCents > SIGNATURE_THRESHOLD_CENTS;
}

/** The refusal at checkout and draw entry; the form shows it next to the address field. */
export const PO_BOX_MESSAGE = "We can't ship limited editions to a P.O. Box. Please use a street address.";

/** A limited edition: a piece released on a schedule, or one a draw sells. */
export function isLimitedEdition(product: { releaseAt: string | Date | null; soldByDraw: boolean }): boolean {
  return product.releaseAt !== null || product.soldByDraw;
}
