import { Mail } from 'lucide-react';
import type { NewsletterSignup } from '../../../common/contracts/admin';
import { PanelEmpty, PanelError, PanelHeading, PanelLoading, PanelTable } from './panel-parts';
import { formatOrderDate } from './order-display';

interface NewsletterPanelProps {
  signups: NewsletterSignup[] | undefined;
  isLoading: boolean;
  isError: boolean;
}

export function NewsletterPanel({ signups, isLoading, isError }: NewsletterPanelProps) {
  return (
    <div className="grid grid-cols-1 gap-4">
      <PanelHeading title="Newsletter" csvHref="/api/admin/newsletter-signups.csv" />
      {isLoading ? (
        <PanelLoading>Loading signups...</PanelLoading>
      ) : isError ? (
        <PanelError what="newsletter signups" />
      ) : !signups || signups.length === 0 ? (
        <PanelEmpty icon={Mail}>
          <p className="font-semibold">No newsletter signups yet</p>
        </PanelEmpty>
      ) : (
        <PanelTable label="Newsletter signups table" caption="Newsletter signups" minWidth="min-w-[32rem]">
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
        </PanelTable>
      )}
    </div>
  );
}
