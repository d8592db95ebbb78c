/**
 * The contracts storefront screens parse answers with, loaded on first use (chunks of their own with
 * zod), so no storefront page's first script carries zod (bench/README.md, initial JS). zod's JIT is
 * switched off first, in a separate step: the bundler does not keep module order across chunks, and
 * a schema built before the switch would run zod's eval probe, which the CSP refuses (and logs).
 */
export async function loadStorefrontContracts() {
  await import('./zod-jitless');
  return import('./storefront-contract-schemas');
}
