import { useEffect, useId, useRef, useState } from 'react';
import { ChevronLeft, ChevronRight, Pause, Play } from 'lucide-react';
import { ProductImage } from '../../components/product-image';
import { Button } from '../../components/ui/button';
import { cn } from '../../lib/cn';
import { seasonLabel } from '../../../common/domain/season';
import { formatThreshold } from '../../../common/domain/shipping';
import { useShopSettings } from '../../lib/use-shop-settings';
import { wrapIndex } from './carousel-index';
import { HERO_SLIDES, type HeroSlide } from './hero-slides';
import { scrollToShop } from './scroll-to-shop';

export const CAROUSEL_INTERVAL_MS = 5000;

function usePrefersReducedMotion(): boolean {
  // Read after mount, so the first render matches the server's markup; no timer has fired by then.
  const [reduce, setReduce] = useState(false);
  useEffect(() => {
    const mq = window.matchMedia('(prefers-reduced-motion: reduce)');
    const onChange = () => setReduce(mq.matches);
    onChange();
    mq.addEventListener('change', onChange);
    return () => mq.removeEventListener('change', onChange);
  }, []);
  return reduce;
}

// The lime accent is the live state's alone (docs/design-system.md): the 'accent' tone is a light panel here.
const TONES: Record<HeroSlide['tone'], { panel: string; eyebrow: string; button: 'inverse' | 'primary' }> = {
  ink: { panel: 'bg-ink text-paper', eyebrow: 'text-neutral-300', button: 'inverse' },
  accent: { panel: 'bg-surface text-ink', eyebrow: 'text-muted', button: 'primary' },
  bone: { panel: 'bg-bone text-ink', eyebrow: 'text-muted', button: 'primary' },
};

/**
 * docs/product.md §2/§4 carousel: 7 slides, wraps both ways, auto-advances every 5 s (paused on hover,
 * focus, the pause button and prefers-reduced-motion), APG carousel semantics.
 */
export function HeroCarousel() {
  const { freeShippingThreshold, season } = useShopSettings();
  const threshold = formatThreshold(freeShippingThreshold);
  const [index, setIndex] = useState(0);
  const [hovered, setHovered] = useState(false);
  const [focused, setFocused] = useState(false);
  const [stopped, setStopped] = useState(false);
  const reduceMotion = usePrefersReducedMotion();
  const headingId = useId();
  const count = HERO_SLIDES.length;
  const rotating = !stopped && !hovered && !focused && !reduceMotion;
  const sectionRef = useRef<HTMLElement>(null);

  useEffect(() => {
    if (!rotating) return;
    const t = window.setTimeout(() => {
      // The pointer or focus may be inside without React having seen it enter (it arrived before
      // hydration): ask the page itself before moving on, and pause instead. The same for the motion
      // preference, which React learns only after its first render (a timer may be set before then).
      if (window.matchMedia('(prefers-reduced-motion: reduce)').matches) return;
      const el = sectionRef.current;
      const pointerInside = el?.matches(':hover') ?? false;
      const focusInside = el?.contains(document.activeElement) ?? false;
      if (pointerInside || focusInside) {
        setHovered(pointerInside);
        setFocused(focusInside);
        return;
      }
      setIndex((i) => wrapIndex(i + 1, count));
    }, CAROUSEL_INTERVAL_MS);
    return () => window.clearTimeout(t);
  }, [rotating, index, count]);

  const fill = (s: string) =>
    s.replaceAll('{threshold}', threshold).replaceAll('{season}', seasonLabel(season));

  return (
    <section
      ref={sectionRef}
      aria-roledescription="carousel"
      aria-labelledby={headingId}
      className="relative"
      onMouseEnter={() => setHovered(true)}
      onMouseLeave={() => setHovered(false)}
      onFocus={() => setFocused(true)}
      onBlur={(e) => {
        if (!e.currentTarget.contains(e.relatedTarget as Node | null)) setFocused(false);
      }}
    >
      <h2 id={headingId} className="sr-only">
        Highlights
      </h2>

      <div className="grid" aria-live={rotating ? 'off' : 'polite'}>
        {HERO_SLIDES.map((slide, i) => {
          const active = i === index;
          const tone = TONES[slide.tone];
          return (
            <div
              key={slide.id}
              role="group"
              aria-roledescription="slide"
              aria-label={`Slide ${i + 1} of ${count}`}
              aria-hidden={!active}
              inert={!active}
              className={cn(
                'col-start-1 row-start-1 grid md:grid-cols-[minmax(0,1fr)_minmax(0,1fr)] md:items-center lg:grid-cols-[minmax(0,1fr)_minmax(0,34rem)]',
                tone.panel,
                // Text switches at once (never half-faded, so always at full contrast); the picture fades in.
                active ? 'visible' : 'invisible',
              )}
            >
              <div className="flex flex-col justify-center gap-4 px-4 py-8 sm:px-6 md:px-12 md:py-16 lg:px-16">
                <p className={cn('type-eyebrow', tone.eyebrow)}>
                  {slide.eyebrow}
                </p>
                <h3 className="text-3xl font-semibold leading-[1.05] tracking-tight sm:text-4xl lg:text-5xl">
                  {fill(slide.title)}
                </h3>
                <p className="max-w-md text-base md:text-lg">{fill(slide.description)}</p>
                <div className="pt-2">
                  <Button variant={tone.button} size="lg" onClick={scrollToShop}>
                    {slide.cta}
                  </Button>
                </div>
              </div>
              <div
                className={cn(
                  // The picture keeps its own proportions at every width (never cropped); side by side from md.
                  'relative order-first overflow-hidden transition-opacity duration-700 motion-reduce:transition-none md:order-none',
                  active ? 'opacity-100' : 'opacity-0',
                )}
                style={{ aspectRatio: `${slide.width} / ${slide.height}` }}
              >
                <ProductImage
                  src={slide.image}
                  alt=""
                  width={slide.width}
                  height={slide.height}
                  sizes="(min-width: 768px) 50vw, 100vw"
                  className="absolute inset-0 h-full w-full object-cover"
                />
              </div>
            </div>
          );
        })}
      </div>

      <div className="flex items-center justify-between gap-3 border-b border-hairline bg-paper px-4 py-1 md:px-6">
        <div className="flex items-center gap-1">
          <button
            type="button"
            onClick={() => setStopped((s) => !s)}
            aria-label={stopped ? 'Start slide rotation' : 'Stop slide rotation'}
            className="grid h-11 w-11 place-items-center text-muted hover:text-ink"
          >
            {stopped ? (
              <Play className="h-5 w-5" aria-hidden="true" />
            ) : (
              <Pause className="h-5 w-5" aria-hidden="true" />
            )}
          </button>
          <button
            type="button"
            onClick={() => setIndex((i) => wrapIndex(i - 1, count))}
            aria-label="Previous slide"
            className="grid h-11 w-11 place-items-center text-muted hover:text-ink"
          >
            <ChevronLeft className="h-6 w-6" aria-hidden="true" />
          </button>
          <button
            type="button"
            onClick={() => setIndex((i) => wrapIndex(i + 1, count))}
            aria-label="Next slide"
            className="grid h-11 w-11 place-items-center text-muted hover:text-ink"
          >
            <ChevronRight className="h-6 w-6" aria-hidden="true" />
          </button>
        </div>
        <ul className="flex items-center" aria-label="Choose a slide">
          {HERO_SLIDES.map((slide, i) => (
            <li key={slide.id}>
              <button
                type="button"
                onClick={() => setIndex(i)}
                aria-label={`Go to slide ${i + 1}`}
                aria-current={i === index ? 'true' : undefined}
                className="group grid h-11 w-7 place-items-center sm:w-9"
              >
                <span
                  aria-hidden="true"
                  className={cn(
                    'block h-0.5 transition-all',
                    i === index ? 'w-6 bg-ink' : 'w-4 bg-hairline-strong group-hover:bg-ink',
                  )}
                />
              </button>
            </li>
          ))}
        </ul>
        <p
          className="type-mono hidden min-w-16 text-right text-sm text-muted md:block"
          aria-hidden="true"
        >
          {String(index + 1).padStart(2, '0')} / {String(count).padStart(2, '0')}
        </p>
      </div>
    </section>
  );
}
