import { lazy, Suspense, useEffect, useState } from 'react';
import { useLocation } from 'wouter';
import { hasSeenNewsletter, markNewsletterSeen } from './seen-flag';

export const POPUP_DELAY_MS = 3000;

const loadDialog = () => import('./newsletter-dialog');
const NewsletterDialog = lazy(loadDialog);

/** Screens where a marketing modal would get in the way of a task. */
function isQuietRoute(path: string): boolean {
  return path.startsWith('/admin') || path.startsWith('/checkout');
}

/**
 * Opens the newsletter offer 3 s after load unless the seen flag is stored (docs/product.md §4).
 * The dialog's code is fetched when it is due, so it never competes with the page's first seconds.
 */
export function NewsletterPopup() {
  const [location] = useLocation();
  const [due, setDue] = useState(false);
  const [open, setOpen] = useState(false);
  const [done, setDone] = useState(false);

  useEffect(() => {
    if (hasSeenNewsletter()) return;
    const timer = window.setTimeout(() => setDue(true), POPUP_DELAY_MS);
    return () => window.clearTimeout(timer);
  }, []);

  // Waits out a quiet screen and opens on the next storefront screen instead.
  useEffect(() => {
    if (due && !done && !isQuietRoute(location) && !hasSeenNewsletter()) setOpen(true);
  }, [due, done, location]);

  if (!due || done) return null;

  const close = () => {
    markNewsletterSeen();
    setOpen(false);
    setDone(true);
  };

  return (
    <Suspense fallback={null}>
      <NewsletterDialog open={open} onClose={close} />
    </Suspense>
  );
}
