import type { ReactNode } from 'react';
import { Breadcrumb } from '../../components/breadcrumb';
import { cn } from '../../lib/cn';

/** Breadcrumb strip, black hero band with the page's one h1, then the page body. */
export function StaticPageLayout({
  title,
  eyebrow,
  intro,
  children,
}: {
  title: string;
  eyebrow: string;
  intro: ReactNode;
  children: ReactNode;
}) {
  return (
    <div>
      <div className="mx-auto max-w-7xl px-4 pt-6 pb-4 sm:px-6 lg:px-8">
        <Breadcrumb items={[{ label: 'Home', href: '/' }, { label: title }]} />
      </div>
      <div className="border-b border-hairline">
        <div className="mx-auto max-w-7xl px-4 py-14 sm:px-6 sm:py-20 lg:px-8">
          <p className="type-eyebrow text-muted">{eyebrow}</p>
          <h1 className="type-display mt-3">
            {title}
          </h1>
          <div className="mt-6 max-w-2xl text-base leading-relaxed text-muted sm:text-lg">{intro}</div>
        </div>
      </div>
      <div className="mx-auto max-w-7xl px-4 py-12 sm:px-6 sm:py-16 lg:px-8">{children}</div>
    </div>
  );
}

/** A titled block of a static page: h2 in the display face, prose below. */
export function PageSection({
  id,
  title,
  children,
  className,
}: {
  id: string;
  title: string;
  children: ReactNode;
  className?: string;
}) {
  return (
    <section aria-labelledby={id} className={cn('border-t border-hairline pt-8', className)}>
      <h2 id={id} className="type-heading">
        {title}
      </h2>
      <div className="mt-5 space-y-4 text-base leading-relaxed text-neutral-800">{children}</div>
    </section>
  );
}

/** Big figure + caption, for "at a glance" rows. */
export function StatList({
  items,
  tone = 'light',
}: {
  items: Array<{ value: string; label: string }>;
  tone?: 'light' | 'dark';
}) {
  return (
    <dl
      className={cn(
        'grid grid-cols-2 gap-px border lg:grid-cols-4',
        tone === 'dark' ? 'border-neutral-700 bg-neutral-700' : 'border-hairline bg-hairline',
      )}
    >
      {items.map((s) => (
        <div
          key={s.label}
          className={cn(
            // column-reverse starts at the bottom: justify-end keeps every figure on the top line.
            'flex flex-col-reverse justify-end gap-2 p-5 sm:p-6',
            tone === 'dark' ? 'bg-ink text-paper' : 'bg-paper',
          )}
        >
          <dt
            className={cn(
              'type-eyebrow',
              tone === 'dark' ? 'text-neutral-300' : 'text-muted',
            )}
          >
            {s.label}
          </dt>
          <dd
            className={cn(
              'text-3xl leading-none font-semibold tracking-tight tabular-nums sm:text-4xl',
              tone === 'dark' && 'text-paper',
            )}
          >
            {s.value}
          </dd>
        </div>
      ))}
    </dl>
  );
}

export function ContactBlock({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section aria-labelledby="contact-heading" className="border-t border-hairline bg-bone p-6 text-ink sm:p-10">
      <h2 id="contact-heading" className="type-heading">
        {title}
      </h2>
      <div className="mt-4 max-w-2xl space-y-3 text-base leading-relaxed">{children}</div>
    </section>
  );
}
