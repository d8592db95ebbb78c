import { orderStatusTone, type StatusTone } from '../../../common/domain/order-status';

export function orderStatusLabel(status: string): string {
  return status ? status.charAt(0).toUpperCase() + status.slice(1) : status;
}

/**
 * docs/product.md §4 badge colours. Dark text on pale fills (and white on the darker green) keep contrast
 * above 4.5:1 so the badges pass WCAG AA.
 */
const badgeClassByTone: Record<StatusTone, string> = {
  yellow: 'bg-yellow-100 text-yellow-900 border-yellow-400',
  blue: 'bg-blue-100 text-blue-900 border-blue-400',
  purple: 'bg-purple-100 text-purple-900 border-purple-400',
  green: 'bg-green-100 text-green-900 border-green-500',
  'dark-green': 'bg-green-800 text-white border-green-900',
  red: 'bg-red-100 text-red-900 border-red-400',
  grey: 'bg-neutral-200 text-neutral-900 border-neutral-400',
};

export function orderStatusBadgeClass(status: string): string {
  return badgeClassByTone[orderStatusTone(status)];
}

const orderDateOptions: Intl.DateTimeFormatOptions = {
  month: 'short',
  day: 'numeric',
  year: 'numeric',
  hour: 'numeric',
  minute: '2-digit',
};

/** docs/product.md §2: en-US short month, day, year, hour, minute ("Nov 22, 2026, 3:04 PM"). */
export function formatOrderDate(iso: string, timeZone?: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  // Newer ICU puts a narrow no-break space before AM/PM; plain spaces read and match the same everywhere.
  return new Intl.DateTimeFormat('en-US', { ...orderDateOptions, timeZone })
    .format(date)
    .replace(/[\u202f\u00a0]/g, ' ');
}

/** 'FREE' when shipping costs nothing (docs/product.md §2). */
export function formatShipping(shipping: string): string {
  return Number(shipping) === 0 ? 'FREE' : `$${shipping}`;
}

/** Orders tab search: by order number or customer e-mail, case-insensitive. */
export function matchesOrderSearch(
  order: { orderNumber: string; customerEmail: string },
  query: string,
): boolean {
  const q = query.trim().toLowerCase();
  if (!q) return true;
  return order.orderNumber.toLowerCase().includes(q) || order.customerEmail.toLowerCase().includes(q);
}
