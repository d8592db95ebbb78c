import { HttpError } from '../../lib/http-error';

export const PRODUCT_NOT_FOUND = 'Product not found';

/** The edition cap (docs/operations.md, The edition cap): sold + held + stock never exceeds the edition size. */
export const EDITION_MESSAGES = {
  onlyUnmade: (left: number, sold: number, held: number, size: number) =>
    `Only ${left} ${left === 1 ? 'piece' : 'pieces'} of this edition remain unmade: ${sold} of ${size} are sold${held ? ` and ${held} held in checkouts` : ''}`,
  soldOut: (size: number) =>
    `All ${size} pieces of this edition are made: a sold-out edition cannot be restocked`,
  sizeBelowSold: (sold: number, held: number) =>
    `The edition size cannot be below the ${sold + held} pieces already sold${held ? ` or held in checkouts` : ''}`,
} as const;

/** A product split into sizes (ADR 015) changes its stock through its size run only. */
export const SIZE_RUN_MESSAGES = {
  splitStock: 'This product is split into sizes: change the pieces per size (sizeRun), not the stock.',
  splitEdition: (size: number) =>
    `This product is split into sizes: send the pieces per size (sizeRun) adding up to the new edition of ${size}.`,
} as const;

/** 409 of a PATCH whose stock moved since the form was loaded: the answer carries the current number. */
export class StockConflictError extends HttpError {
  constructor(readonly currentStock: number) {
    super(409, `Stock changed while you were editing: it is now ${currentStock}. Check it and save again.`);
  }
}
