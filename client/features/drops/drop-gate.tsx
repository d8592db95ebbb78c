import { useEffect, useState, type ComponentType, type ReactNode } from 'react';
import { useHydrated } from '../../lib/release-clock';

type WaitingRoomComponent = ComponentType<{ productId: string; barLead?: ReactNode; children: ReactNode }>;

// The waiting room's code (and its EventSource) loads only on the page of a product with a release time.
let loaded: WaitingRoomComponent | null = null;
const loadWaitingRoom = () =>
  import('./waiting-room').then((m) => {
    loaded = m.default;
    return m.default;
  });

/**
 * Wraps a product page's purchase controls: for a product with a release time, the waiting room
 * (ADR 010) takes their place while the drop's room is open; otherwise, in the server's render
 * and until its code has loaded, the controls themselves. (A plain dynamic import, not React.lazy:
 * Suspense reveals wait on a timer, which would hold the room back under a paused fake clock.)
 */
export function DropGate({
  productId,
  releaseAt,
  barLead,
  children,
}: {
  productId: string;
  releaseAt: string | null;
  /** The phone bar's name-and-price row: the room's own bar leads with it. */
  barLead?: ReactNode;
  children: ReactNode;
}) {
  const hydrated = useHydrated();
  const [Room, setRoom] = useState<WaitingRoomComponent | null>(() => loaded);
  const wanted = releaseAt !== null && hydrated;
  useEffect(() => {
    if (!wanted || Room) return;
    let live = true;
    loadWaitingRoom().then(
      (component) => live && setRoom(() => component),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [wanted, Room]);
  if (!wanted) return <>{children}</>;
  // A drop's controls stay inert for the moment its room's code loads (inside the drop window an add
  // needs the pass, which only the room gets).
  if (!Room)
    return (
      <fieldset disabled className="contents" aria-busy="true">
        {children}
      </fieldset>
    );
  return (
    <Room productId={productId} barLead={barLead}>
      {children}
    </Room>
  );
}
