// The contracts storefront screens parse answers with, loaded on first use (a chunk of its own with zod)
// so no storefront page's first script carries zod (bench/README.md, initial JS). The JIT switch first:
// ES modules run in import order.
import './zod-jitless';

export { cartItemSchema, cartSchema } from '../../common/contracts/cart';
export { productSchema } from '../../common/contracts/catalog';
