/** docs/product.md §9: support replies within 24 hours. */
export const SUPPORT_REPLY_HOURS = 24;
