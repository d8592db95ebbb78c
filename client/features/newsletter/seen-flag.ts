// docs/product.md §4: once the popup was closed (any way) or the shopper subscribed, it never opens again.
export const NEWSLETTER_SEEN_KEY = 'fifty:newsletter-seen';
/** Until when (ms since the epoch) the popup stays away: this browser is in a drop (room, ticket, claim link). */
export const DROP_QUIET_KEY = 'fifty:drop-quiet-until';
/** How long a drop keeps the popup away after the shopper was last on a drop's page or claim link. */
export const DROP_QUIET_MS = 2 * 60 * 60 * 1000;

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

/**
 * Nothing covers a drop: a shopper on a drop's page (waiting room, ticket, pass) or a claim link keeps
 * the popup away from every tab for a while, so it never lands over 'It's your turn' on another page.
 */
export function markInDrop(now = Date.now()): void {
  try {
    window.localStorage.setItem(DROP_QUIET_KEY, String(now + DROP_QUIET_MS));
  } catch {
    /* storage unavailable: the page itself still stays quiet */
  }
}

export function isInDrop(now = Date.now()): boolean {
  try {
    return Number(window.localStorage.getItem(DROP_QUIET_KEY) ?? 0) > now;
  } catch {
    return false;
  }
}
