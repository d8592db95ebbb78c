import { useId, useState } from 'react';
import { ChevronLeft, ChevronRight, Star } from 'lucide-react';
import { cn } from '../../lib/cn';
import { wrapIndex } from './carousel-index';
import { TESTIMONIALS, type Testimonial } from './testimonials-data';

export const TESTIMONIALS_PER_PAGE = 3;

function Stars({ rating }: { rating: number }) {
  return (
    <p role="img" aria-label={`Rated ${rating} out of 5`} className="flex gap-0.5">
      {[1, 2, 3, 4, 5].map((n) => (
        <Star
          key={n}
          aria-hidden="true"
          className={cn('h-4 w-4', n <= rating ? 'fill-ink text-ink' : 'fill-transparent text-ink/30')}
        />
      ))}
    </p>
  );
}

function Card({ t }: { t: Testimonial }) {
  return (
    <figure className="flex h-full flex-col gap-5 border-2 border-ink bg-white p-6 md:p-8">
      <Stars rating={t.rating} />
      <blockquote className="flex-1 text-lg leading-snug">
        <p>“{t.review}”</p>
      </blockquote>
      <figcaption className="border-t border-black/10 pt-4">
        <span className="block font-display text-xl uppercase tracking-wide">{t.name}</span>
        <span className="block text-sm text-muted">{t.location}</span>
      </figcaption>
    </figure>
  );
}

/** docs/product.md §4: 9 entries, 3 per page, 3 pages, previous/next/dots, wrapping. */
export function Testimonials() {
  const pages = Math.ceil(TESTIMONIALS.length / TESTIMONIALS_PER_PAGE);
  const [page, setPage] = useState(0);
  const headingId = useId();
  const visible = TESTIMONIALS.slice(page * TESTIMONIALS_PER_PAGE, (page + 1) * TESTIMONIALS_PER_PAGE);

  return (
    <section aria-labelledby={headingId} className="mx-auto max-w-7xl px-4 py-16 md:px-6 md:py-24">
      <div className="mb-8 flex flex-wrap items-end justify-between gap-6 md:mb-12">
        <div>
          <p className="text-xs font-bold uppercase tracking-[0.3em] text-muted">Reviews</p>
          <h2 id={headingId} className="mt-2 font-display text-5xl uppercase leading-none md:text-7xl">
            Worn by the Few
          </h2>
        </div>
        <div className="flex items-center gap-2">
          <button
            type="button"
            onClick={() => setPage((p) => wrapIndex(p - 1, pages))}
            aria-label="Previous testimonials"
            className="grid h-12 w-12 place-items-center border-2 border-ink hover:bg-ink hover:text-paper"
          >
            <ChevronLeft className="h-6 w-6" aria-hidden="true" />
          </button>
          <button
            type="button"
            onClick={() => setPage((p) => wrapIndex(p + 1, pages))}
            aria-label="Next testimonials"
            className="grid h-12 w-12 place-items-center border-2 border-ink hover:bg-ink hover:text-paper"
          >
            <ChevronRight className="h-6 w-6" aria-hidden="true" />
          </button>
        </div>
      </div>

      <ul aria-live="polite" className="grid gap-4 md:grid-cols-3 md:gap-6">
        {visible.map((t) => (
          <li key={t.name}>
            <Card t={t} />
          </li>
        ))}
      </ul>

      <ul className="mt-8 flex justify-center" aria-label="Testimonial pages">
        {Array.from({ length: pages }, (_, i) => (
          <li key={i}>
            <button
              type="button"
              onClick={() => setPage(i)}
              aria-label={`Go to testimonials page ${i + 1}`}
              aria-current={i === page ? 'true' : undefined}
              className="group grid h-11 w-9 place-items-center"
            >
              <span
                aria-hidden="true"
                className={cn(
                  'block h-2.5 rounded-full border-2 border-ink transition-all',
                  i === page ? 'w-6 bg-ink' : 'w-2.5 group-hover:bg-ink/40',
                )}
              />
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
