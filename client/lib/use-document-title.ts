import { useEffect } from 'react';

/** Sets the tab title for the current screen; null leaves it untouched (e.g. while loading). */
export function useDocumentTitle(title: string | null): void {
  useEffect(() => {
    if (title) document.title = title;
  }, [title]);
}
