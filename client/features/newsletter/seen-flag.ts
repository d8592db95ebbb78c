// docs/product.md §4: once the popup was closed (any way) or the shopper subscribed, it never opens again.
export const NEWSLETTER_SEEN_KEY = 'fifty:newsletter-seen';

export function hasSeenNewsletter(): boolean {
  try {
    return window.localStorage.getItem(NEWSLETTER_SEEN_KEY) !== null;
  } catch {
    // Storage blocked (private mode, policy): treat as seen rather than nag on every page.
    return true;
  }
}

export function markNewsletterSeen(): void {
  try {
    window.localStorage.setItem(NEWSLETTER_SEEN_KEY, new Date().toISOString());
  } catch {
    /* storage unavailable: nothing to remember */
  }
}
