import { useSyncExternalStore } from 'react';

// docs/product.md §4: the drawer has explicit open/close and a toggle; shared by header, cards and sidebar.
let open = false;
const listeners = new Set<() => void>();
const set = (value: boolean) => {
  open = value;
  listeners.forEach((l) => l());
};

export const cartDrawer = {
  open: () => set(true),
  close: () => set(false),
  toggle: () => set(!open),
  setOpen: set,
};

export function useCartDrawerOpen(): boolean {
  return useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    () => open,
    () => open,
  );
}
