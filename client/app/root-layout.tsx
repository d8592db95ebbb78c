import { lazy, Suspense, useEffect, useState, type ReactNode } from 'react';
import { SiteHeader } from '../components/site-header';
import { SiteFooter } from '../components/site-footer';
import { useCartDrawerOpen } from '../features/cart/cart-drawer-store';
import { NewsletterPopup } from '../features/newsletter/newsletter-popup';
import { Toaster } from '../components/ui/toaster';

// The drawer (Radix Dialog and its lines) is loaded the first time it opens, or when the browser is idle.
const CartSidebar = lazy(() => import('../features/cart/cart-sidebar').then((m) => ({ default: m.CartSidebar })));

function DeferredCartSidebar() {
  const open = useCartDrawerOpen();
  const [wanted, setWanted] = useState(false);
  useEffect(() => {
    if (open) setWanted(true);
  }, [open]);
  useEffect(() => {
    const idle = window.requestIdleCallback ?? ((cb: () => void) => window.setTimeout(cb, 2000));
    idle(() => setWanted(true));
  }, []);
  if (!wanted && !open) return null;
  return (
    <Suspense fallback={null}>
      <CartSidebar />
    </Suspense>
  );
}

export function RootLayout({ children }: { children: ReactNode }) {
  return (
    <div className="flex min-h-screen flex-col">
      <SiteHeader />
      <main id="main-content" tabIndex={-1} className="flex-1 focus:outline-none">
        {children}
      </main>
      <SiteFooter />
      <DeferredCartSidebar />
      <NewsletterPopup />
      <Toaster />
    </div>
  );
}
