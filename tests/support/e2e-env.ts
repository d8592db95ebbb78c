/**
 * Proof-of-work size (POW_TRIES) of every e2e shop: playwright.config.ts's and the ones specs start of
 * their own. The bot check still runs in every browser and API helper, at the size the unit tests use
 * (tests/support/build-test-app.ts) instead of a phone's second of work per solve.
 */
export const E2E_POW_TRIES = '20';
