import { config } from 'zod';

// zod compiles object parsers with `new Function` after probing for it; the Content Security Policy
// refuses eval, and the refused probe is logged as a console error on the storefront (Lighthouse best
// practices, bench/README.md). Imported before any contract, so every schema is built without the JIT.
config({ jitless: true });
