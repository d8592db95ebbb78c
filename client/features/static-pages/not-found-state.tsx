import type { ReactNode } from 'react';
import { Link } from 'wouter';
import { buttonVariants } from '../../components/ui/button';

/** Shared layout of the 'Product / Category / Page Not Found' screens (docs/product.md §8). */
export function NotFoundState({
  title,
  message,
  children,
}: {
  title: string;
  message: ReactNode;
  children?: ReactNode;
}) {
  return (
    <div className="mx-auto max-w-3xl px-4 py-20 text-center sm:py-28">
      {/* Decoration drawn with CSS content so it is neither read out nor held to text contrast. */}
      <p
        aria-hidden="true"
        className="type-mono text-7xl leading-none text-hairline select-none before:content-['404'] sm:text-8xl"
      />
      <h1 className="type-display-sm mt-4">{title}</h1>
      <div className="mt-4 text-muted">{message}</div>
      {children}
      <Link href="/" className={buttonVariants({ className: 'mt-8' })}>
        Return to Home
      </Link>
    </div>
  );
}
