/** CTAs scroll smoothly to the product grid (#shop); instantly under prefers-reduced-motion. */
export function scrollToShop(): void {
  const target = document.getElementById('shop');
  if (!target) return;
  const reduce = window.matchMedia('(prefers-reduced-motion: reduce)').matches;
  target.scrollIntoView({ behavior: reduce ? 'auto' : 'smooth', block: 'start' });
  // Move keyboard focus with the view so the next Tab continues inside the grid.
  target.setAttribute('tabindex', '-1');
  target.focus({ preventScroll: true });
}
