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
          className={cn('h-4 w-4', n <= rating ? 'fill-ink text-ink' : 'fill-transparent text-hairline-strong')}
        />
      ))}
    </p>
  );
}

function Card({ t }: { t: Testimonial }) {
  return (
    <figure className="flex h-full flex-col gap-5 border-t border-ink pt-6">
      <Stars rating={t.rating} />
      <blockquote className="flex-1 text-base leading-relaxed md:text-lg">
        <p>“{t.review}”</p>
      </blockquote>
      <figcaption className="pt-2">
        <span className="block text-sm font-semibold">{t.name}</span>
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
    <section aria-labelledby={headingId} className="mx-auto max-w-7xl px-4 py-16 md:py-24 md:px-6">
      <div className="mb-8 flex flex-wrap items-end justify-between gap-6 md:mb-12">
        <div>
          <p className="type-eyebrow text-muted">Reviews</p>
          <h2 id={headingId} className="type-heading mt-2">
            Worn by the Few
          </h2>
        </div>
        <div className="flex items-center gap-2">
          <button
            type="button"
            onClick={() => setPage((p) => wrapIndex(p - 1, pages))}
            aria-label="Previous testimonials"
            className="grid h-11 w-11 place-items-center border border-hairline-strong hover:border-ink"
          >
            <ChevronLeft className="h-5 w-5" aria-hidden="true" />
          </button>
          <button
            type="button"
            onClick={() => setPage((p) => wrapIndex(p + 1, pages))}
            aria-label="Next testimonials"
            className="grid h-11 w-11 place-items-center border border-hairline-strong hover:border-ink"
          >
            <ChevronRight className="h-5 w-5" aria-hidden="true" />
          </button>
        </div>
      </div>

      <ul aria-live="polite" className="grid gap-10 md:grid-cols-3 md:gap-8">
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
                  'block h-0.5 transition-all',
                  i === page ? 'w-6 bg-ink' : 'w-4 bg-hairline-strong group-hover:bg-ink',
                )}
              />
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
