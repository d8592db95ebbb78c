// The contracts storefront screens parse answers with; loaded through storefront-contracts.ts only.
export { cartItemSchema, cartSchema } from '../../common/contracts/cart';
export { productSchema } from '../../common/contracts/catalog';
