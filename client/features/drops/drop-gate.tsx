import { lazy, Suspense, type ReactNode } from 'react';
import { useHydrated } from '../catalog/release-clock';

// The waiting room's code (and its EventSource) loads only on the page of a product with a release time.
const WaitingRoom = lazy(() => import('./waiting-room'));

/**
 * Wraps a product page's purchase controls: for a product with a release time, the waiting room
 * (issue 14 item 4) takes their place while the drop's room is open; otherwise, and in the server's
 * render, the controls themselves.
 */
export function DropGate({
  productId,
  releaseAt,
  children,
}: {
  productId: string;
  releaseAt: string | null;
  children: ReactNode;
}) {
  const hydrated = useHydrated();
  if (!releaseAt || !hydrated) return <>{children}</>;
  return (
    <Suspense
      fallback={
        <fieldset disabled className="contents">
          {children}
        </fieldset>
      }
    >
      <WaitingRoom productId={productId}>{children}</WaitingRoom>
    </Suspense>
  );
}
