import { Download, Mail } from 'lucide-react';
import type { NewsletterSignup } from '../../../common/contracts/admin';
import { buttonVariants } from '../../components/ui/button';
import { formatOrderDate } from './order-display';

interface NewsletterPanelProps {
  signups: NewsletterSignup[] | undefined;
  isLoading: boolean;
  isError: boolean;
}

export function NewsletterPanel({ signups, isLoading, isError }: NewsletterPanelProps) {
  return (
    <div className="grid grid-cols-1 gap-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 className="font-display text-2xl uppercase tracking-wide">Newsletter</h2>
        <a
          href="/api/admin/newsletter-signups.csv"
          download
          className={buttonVariants({ variant: 'outline', size: 'sm' })}
        >
          <Download className="h-4 w-4" aria-hidden="true" />
          Export CSV
        </a>
      </div>
      {isLoading ? (
        <p className="border-2 border-ink bg-white p-6 text-center text-sm" aria-live="polite">
          Loading signups...
        </p>
      ) : isError ? (
        <p role="alert" className="border-2 border-red-700 bg-red-50 p-4 text-sm text-red-900">
          Could not load newsletter signups. Reload the page to try again.
        </p>
      ) : !signups || signups.length === 0 ? (
        <div className="flex flex-col items-center gap-2 border-2 border-dashed border-neutral-400 p-10 text-center">
          <Mail className="h-10 w-10 text-muted" aria-hidden="true" />
          <p className="font-semibold">No newsletter signups yet</p>
        </div>
      ) : (
        <div
          className="relative overflow-x-auto border-2 border-ink bg-white"
          role="region"
          aria-label="Newsletter signups table"
          tabIndex={0}
        >
          <table className="w-full min-w-[32rem] text-left text-sm">
            <caption className="sr-only">Newsletter signups</caption>
            <thead className="border-b-2 border-ink bg-bone text-xs uppercase tracking-wide">
              <tr>
                <th scope="col" className="px-4 py-2.5">
                  Email
                </th>
                <th scope="col" className="px-4 py-2.5">
                  Signed Up
                </th>
                <th scope="col" className="px-4 py-2.5">
                  Status
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-neutral-200">
              {signups.map((s) => (
                <tr key={s.id}>
                  <td className="break-all px-4 py-2.5 font-medium">{s.email}</td>
                  <td className="whitespace-nowrap px-4 py-2.5">
                    <time dateTime={s.subscribed_at}>{formatOrderDate(s.subscribed_at)}</time>
                  </td>
                  <td className="px-4 py-2.5">
                    <span className="inline-block bg-green-100 px-2 py-0.5 text-xs font-bold text-green-900">
                      Subscribed
                    </span>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}
