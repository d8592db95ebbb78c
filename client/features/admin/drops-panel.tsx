import { useId, useState, type FormEvent } from 'react';
import { Pause, Play, Timer } from 'lucide-react';
import type { AdminDrop, DropPhase } from '../../../common/contracts/drops';
import { Button } from '../../components/ui/button';
import { Input } from '../../components/ui/input';
import { cn } from '../../lib/cn';
import { PanelEmpty, PanelError, PanelLoading, PanelTable } from './panel-parts';
import { useAdminDrops, useUpdateDrop } from './use-admin-drops';
import { adminErrorMessage } from './use-admin-session';

const PHASE_LABEL: Record<DropPhase, string> = {
  not_open: 'Upcoming',
  raffle: 'Room open (draw)',
  open: 'Live',
  sold_out: 'Sold out',
  ended: 'Ended',
};

const PHASE_STYLE: Record<DropPhase, string> = {
  not_open: 'border-neutral-400 text-ink',
  raffle: 'border-ink bg-accent text-ink',
  open: 'border-emerald-800 bg-emerald-50 text-emerald-900',
  sold_out: 'border-ink bg-ink text-paper',
  ended: 'border-neutral-400 text-muted',
};

/** The release in the owner's own zone (the browser's), e.g. 'Fri 27 Nov, 18:00 CET'. */
const releaseFormat = () =>
  new Intl.DateTimeFormat(undefined, {
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    timeZoneName: 'short',
  });

/** '3 min 12 s', '45 s', '1 h 2 min'. */
export function formatDuration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.floor(s / 60)} min ${s % 60} s`;
  return `${Math.floor(s / 3600)} h ${Math.floor((s % 3600) / 60)} min`;
}

const cell = 'whitespace-nowrap px-3 py-2.5 tabular-nums';

function DropControls({ drop }: { drop: AdminDrop }) {
  const update = useUpdateDrop();
  const id = useId();
  // The owner's edit wins over the 2-second refresh until it is saved.
  const [draft, setDraft] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  const value = draft ?? String(drop.admitPerMinute);

  const send = (change: { admitPerMinute?: number; paused?: boolean }, onDone?: () => void) => {
    setError(null);
    setSaved(false);
    update.mutate(
      { productId: drop.productId, update: change },
      {
        onSuccess: () => onDone?.(),
        onError: (err) => setError(adminErrorMessage(err)),
      },
    );
  };
  const save = (e: FormEvent) => {
    e.preventDefault();
    // Sent as typed: the server says what is wrong with it (a whole number from 1 to 100000).
    send({ admitPerMinute: value.trim() === '' ? Number.NaN : Number(value) }, () => {
      setDraft(null);
      setSaved(true);
    });
  };

  return (
    <div className="flex flex-col gap-1.5">
      <div className="flex flex-wrap items-center gap-2">
        <form onSubmit={save} noValidate className="flex items-center gap-2">
          <label htmlFor={`${id}-rate`} className="sr-only">
            Admission rate for {drop.name} (shoppers per minute)
          </label>
          <Input
            id={`${id}-rate`}
            type="number"
            inputMode="numeric"
            min={1}
            max={100000}
            step={1}
            value={value}
            onChange={(e) => {
              setDraft(e.target.value);
              setSaved(false);
            }}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? `${id}-error` : `${id}-unit`}
            className="h-9 w-24 text-sm"
          />
          <span id={`${id}-unit`} className="text-xs text-muted">
            / min
          </span>
          <Button type="submit" size="sm" variant="outline" disabled={update.isPending}>
            Save
          </Button>
        </form>
        <Button
          type="button"
          size="sm"
          variant={drop.paused ? 'default' : 'outline'}
          disabled={update.isPending}
          onClick={() => send({ paused: !drop.paused })}
        >
          {drop.paused ? (
            <Play className="h-3.5 w-3.5" aria-hidden="true" />
          ) : (
            <Pause className="h-3.5 w-3.5" aria-hidden="true" />
          )}
          {drop.paused ? 'Resume' : 'Pause'}
        </Button>
      </div>
      <p aria-live="polite" className="text-xs empty:hidden">
        {saved ? 'Saved' : ''}
      </p>
      {error && (
        <p id={`${id}-error`} role="alert" className="max-w-64 whitespace-normal text-xs font-semibold text-red-700">
          {error}
        </p>
      )}
    </div>
  );
}

/** The owner's Drops view (ADR 010): upcoming and live drops, their queue and stock, admission controls. */
export function DropsPanel() {
  const drops = useAdminDrops();
  const format = releaseFormat();
  const list = drops.data;

  return (
    <div className="grid grid-cols-1 gap-6">
      <div>
        <h2 className="font-display text-2xl uppercase tracking-wide">Drops</h2>
        <p className="mt-1 text-sm text-muted">
          Products with a release time. Live figures refresh every 2 seconds; the admission rate is shoppers let in
          per minute.
        </p>
      </div>
      {drops.isLoading ? (
        <PanelLoading>Loading drops...</PanelLoading>
      ) : drops.isError && !list ? (
        <PanelError what="drops" />
      ) : !list || list.length === 0 ? (
        <PanelEmpty icon={Timer}>
          <p className="font-semibold">No drops yet</p>
          <p className="text-sm text-muted">Give a product a release time to schedule a drop.</p>
        </PanelEmpty>
      ) : (
        <PanelTable label="Drops table" caption="Upcoming and live drops" minWidth="min-w-[78rem]">
          <thead className="border-b-2 border-ink bg-bone text-xs uppercase tracking-wide">
            <tr>
              <th scope="col" className="px-3 py-2.5">
                Drop
              </th>
              <th scope="col" className="px-3 py-2.5">
                Release
              </th>
              <th scope="col" className="px-3 py-2.5">
                Phase
              </th>
              <th scope="col" className="px-3 py-2.5">
                Waiting
              </th>
              <th scope="col" className="px-3 py-2.5">
                Admitted
              </th>
              <th scope="col" className="px-3 py-2.5">
                Admitted/s
              </th>
              <th scope="col" className="px-3 py-2.5">
                Held / sold / left
              </th>
              <th scope="col" className="px-3 py-2.5">
                Sold out in
              </th>
              <th scope="col" className="px-3 py-2.5">
                Admission
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-neutral-200">
            {list.map((d) => (
              <tr key={d.productId} className="align-top">
                <th scope="row" className="max-w-56 px-3 py-2.5 font-semibold">
                  {d.name}
                </th>
                <td className={cell}>
                  <time dateTime={d.releaseAt}>{format.format(new Date(d.releaseAt))}</time>
                </td>
                <td className={cell}>
                  <span
                    className={cn(
                      'inline-block border px-2 py-0.5 text-xs font-bold uppercase tracking-wide',
                      PHASE_STYLE[d.phase],
                    )}
                  >
                    {PHASE_LABEL[d.phase]}
                  </span>
                  {d.paused && <span className="ml-2 text-xs font-bold text-red-700 uppercase">Paused</span>}
                </td>
                <td className={cell}>{d.queueLength}</td>
                <td className={cell}>{d.admitted}</td>
                <td className={cell}>{d.admittedPerSecond.toFixed(1)}</td>
                <td className={cell}>
                  {d.held} / {d.sold} / {d.left} <span className="text-muted">of {d.editionSize}</span>
                </td>
                <td className={cell}>{d.sellOutSeconds === null ? '—' : formatDuration(d.sellOutSeconds)}</td>
                <td className="px-3 py-2.5">
                  <DropControls drop={d} />
                </td>
              </tr>
            ))}
          </tbody>
        </PanelTable>
      )}
    </div>
  );
}
