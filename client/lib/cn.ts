import { clsx, type ClassValue } from 'clsx';
import { twMerge } from 'tailwind-merge';

export function cn(...inputs: ClassValue[]): string {
  return twMerge(clsx(inputs));
}

/**
 * tailwind-merge builds its class map on its first call (~10 ms on a desktop, four times that on a
 * slow phone); the browser calls this in a task of its own before hydrating (client/boot.tsx).
 */
export function warmClassMerge(): void {
  twMerge('px-2 px-4');
}
