import { clsx, type ClassValue } from 'clsx';
import { mergeClasses } from './class-merge';

/** Joins class names; a later Tailwind class wins over an earlier one for the same property. */
export function cn(...inputs: ClassValue[]): string {
  return mergeClasses(clsx(inputs));
}
