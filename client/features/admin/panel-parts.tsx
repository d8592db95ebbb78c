import type { ReactNode } from 'react';
import { Download, RefreshCw, type LucideIcon } from 'lucide-react';
import { Button, buttonVariants } from '../../components/ui/button';

/** A tab's heading row, with the CSV export link when the tab has one and anything else beside it. */
export function PanelHeading({ title, csvHref, children }: { title: string; csvHref?: string; children?: ReactNode }) {
  return (
    <div className="flex flex-wrap items-center justify-between gap-3">
      <h2 className="font-display text-2xl uppercase tracking-wide">{title}</h2>
      <div className="flex flex-wrap items-center gap-2">
        {children}
        {csvHref && (
          <a href={csvHref} download className={buttonVariants({ variant: 'outline', size: 'sm' })}>
            <Download className="h-4 w-4" aria-hidden="true" />
            Export CSV
          </a>
        )}
      </div>
    </div>
  );
}

const clockFormat = () => new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit', second: '2-digit' });

/**
 * "Updated 18:02:05" and a refresh button: when the list on screen was fetched (it refreshes on its own while
 * a drop is live). The time is not a live region: it would speak every 5 s; the icon does not spin for the
 * background refreshes either (motion every few seconds), only the button is busy while one runs.
 */
export function UpdatedAt({ at, onRefresh, what, refreshing }: { at: number; onRefresh: () => void; what: string; refreshing: boolean }) {
  return (
    <span className="flex items-center gap-2 text-xs text-muted">
      {at > 0 && (
        <span>
          Updated <time dateTime={new Date(at).toISOString()} className="tabular-nums">{clockFormat().format(new Date(at))}</time>
        </span>
      )}
      <Button type="button" size="sm" variant="outline" onClick={onRefresh} aria-busy={refreshing}>
        <RefreshCw className="h-3.5 w-3.5" aria-hidden="true" />
        Refresh {what}
      </Button>
    </span>
  );
}

export function PanelLoading({ children }: { children: ReactNode }) {
  return (
    <p className="border-2 border-ink bg-white p-6 text-center text-sm" aria-live="polite">
      {children}
    </p>
  );
}

export function PanelError({ what }: { what: string }) {
  return (
    <p role="alert" className="border-2 border-red-700 bg-red-50 p-4 text-sm text-red-900">
      Could not load {what}. Reload the page to try again.
    </p>
  );
}

export function PanelEmpty({ icon: Icon, children }: { icon: LucideIcon; children: ReactNode }) {
  return (
    <div className="flex flex-col items-center gap-2 border-2 border-dashed border-neutral-400 p-10 text-center">
      <Icon className="h-10 w-10 text-muted" aria-hidden="true" />
      {children}
    </div>
  );
}

/** Above a table wider than a phone: says the table scrolls sideways (hidden from sm up, where it fits). */
export function ScrollCue() {
  return (
    <p className="-mb-4 text-xs font-semibold text-muted sm:hidden" aria-hidden="true">
      Scroll sideways for more columns →
    </p>
  );
}

/**
 * A tab's data table: scrolls sideways on phones (the cue says so), keyboard-scrollable as a named
 * region, with a caption for screen readers. `minWidth` keeps the columns readable (a Tailwind class).
 */
export function PanelTable({
  label,
  caption,
  minWidth,
  children,
}: {
  label: string;
  caption: string;
  minWidth: string;
  children: ReactNode;
}) {
  return (
    <>
      <ScrollCue />
      <div
        className="relative overflow-x-auto border-2 border-ink bg-white"
        role="region"
        aria-label={label}
        tabIndex={0}
      >
        <table className={`w-full ${minWidth} text-left text-sm`}>
          <caption className="sr-only">{caption}</caption>
          {children}
        </table>
      </div>
    </>
  );
}
