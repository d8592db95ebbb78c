import { Bell } from 'lucide-react';
import { describeCountdown, formatCountdown, formatReleaseUtc } from '../../common/domain/release';
import { formatShopDateTime } from '../../common/domain/date-time-format';
import { buttonVariants } from './ui/button';
import { cn } from '../lib/cn';
import type { SizeStock } from '../../common/contracts/catalog';
import { NotifyMeButton } from './notify-me';
import { useHydrated } from '../lib/release-clock';

/** 'Drops in 2d 04:13:09', as a live timer whose spoken name changes once a minute, not every second. */
export function DropCountdown({ msLeft, className }: { msLeft: number; className?: string }) {
  return (
    <p role="timer" aria-label={describeCountdown(msLeft)} className={cn('font-bold tabular-nums', className)}>
      {formatCountdown(msLeft)}
    </p>
  );
}

/** The release time in the shopper's own zone (after hydration; the server knows only UTC). */
export function ReleaseTime({ releaseAt, className }: { releaseAt: string; className?: string }) {
  const hydrated = useHydrated();
  const local = hydrated ? formatShopDateTime(releaseAt, { zoneName: true }) : formatReleaseUtc(releaseAt);
  return (
    <time dateTime={releaseAt} className={className}>
      {local}
    </time>
  );
}

/**
 * 'Notify me' before a release (and on a sold-out edition): with the product, the signup dialog of
 * notify-me.tsx (ADR 011); without one, the newsletter signup on the home page.
 */
export function NotifyMeLink({
  className,
  describedBy,
  product,
  label,
}: {
  className?: string;
  describedBy?: string;
  product?: { id: string; name?: string; sizeStock?: readonly SizeStock[] };
  label?: string;
}) {
  if (product)
    return (
      <NotifyMeButton
        productId={product.id}
        productName={product.name}
        sizeStock={product.sizeStock}
        label={label}
        className={className}
        describedBy={describedBy}
      />
    );
  return (
    <a
      href="/#newsletter"
      aria-describedby={describedBy}
      className={cn(buttonVariants({ variant: 'default' }), className)}
    >
      <Bell className="h-4 w-4" aria-hidden="true" />
      {label ?? 'Notify me'}
    </a>
  );
}
