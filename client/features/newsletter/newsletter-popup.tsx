import { lazy, Suspense, useEffect, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useLocation } from 'wouter';
import type { Product } from '../../../common/contracts/catalog';
import { matchRoute, PAGE_PATHS } from '../../../common/domain/site-routes';
import { readBootstrap } from '../../lib/bootstrap';
import { hasSeenNewsletter, isInDrop, markInDrop, markNewsletterSeen } from './seen-flag';

export const POPUP_DELAY_MS = 3000;

const loadDialog = () => import('./newsletter-dialog');
const NewsletterDialog = lazy(loadDialog);

/** Screens where a marketing modal would get in the way of a task. */
function isQuietRoute(path: string): boolean {
  return path.startsWith('/admin') || path.startsWith('/checkout');
}

/** The product id of a product page, else null. */
function productIdOf(path: string): string | null {
  if (!matchRoute(PAGE_PATHS.product, path) && !matchRoute(PAGE_PATHS.productAlias, path)) return null;
  return path.split('/')[2]?.toLowerCase() ?? null;
}

/**
 * Is this screen part of a drop? A product with a release time (its room, its ticket, its pass live
 * there) or a restock claim link. Unknown (the product not loaded yet) counts as a drop: wait.
 */
function useDropScreen(location: string): boolean {
  const id = productIdOf(location);
  const boot = readBootstrap().product;
  // Reads the product page's own cache entry, never fetches it.
  const { data } = useQuery<Product>({
    queryKey: ['/api/products', id ?? ''],
    enabled: false,
    initialData: boot && boot.id === id ? boot : undefined,
  });
  if (typeof window !== 'undefined' && new URLSearchParams(window.location.search).has('claim')) return true;
  if (!id) return false;
  return !data || data.releaseAt !== null;
}

/**
 * Opens the newsletter offer 3 s after load unless the seen flag is stored (docs/product.md §4), but
 * never over a drop: not on a drop's product page, a claim link, or while this browser is in a drop
 * (seen-flag.ts markInDrop). The dialog's code is fetched when it is due.
 */
export function NewsletterPopup() {
  const [location] = useLocation();
  const [due, setDue] = useState(false);
  const [open, setOpen] = useState(false);
  const [done, setDone] = useState(false);
  const dropScreen = useDropScreen(location);

  useEffect(() => {
    if (dropScreen) markInDrop();
  }, [dropScreen, location]);

  useEffect(() => {
    if (hasSeenNewsletter()) return;
    const timer = window.setTimeout(() => setDue(true), POPUP_DELAY_MS);
    return () => window.clearTimeout(timer);
  }, []);

  // Waits out a quiet screen and opens on the next storefront screen instead.
  useEffect(() => {
    if (due && !done && !isQuietRoute(location) && !dropScreen && !isInDrop() && !hasSeenNewsletter()) setOpen(true);
  }, [due, done, location, dropScreen]);

  if (!due || done || !open) return null;

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
