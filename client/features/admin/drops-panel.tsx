import { useId, useState, type FormEvent } from 'react';
import { Pause, Play, Timer } from 'lucide-react';
import type { AdminDrop, AdminDropSize, AdminDropUpdate, DropPhase } from '../../../common/contracts/drops';
import { sizedSellOutStory } from '../../../common/domain/size-run';
import { Button } from '../../components/ui/button';
import {
  Dialog,
  DialogClose,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from '../../components/ui/dialog';
import { Input } from '../../components/ui/input';
import { cn } from '../../lib/cn';
import { PanelEmpty, PanelError, PanelLoading, UpdatedAt } from './panel-parts';
import { useAdminDrops, useUpdateDrop } from './use-admin-drops';
import { adminErrorMessage } from './use-admin-session';
import { formatShopDateTime } from '../../../common/domain/date-time-format';

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

/** The release in the owner's own zone (the browser's), in the shop's one format: 'Fri, Nov 27, 2026, 6:00 PM CET'. */
const releaseText = (iso: string) => formatShopDateTime(iso, { zoneName: true });

/** '3 min 12 s', '45 s', '1 h 2 min'. */
export function formatDuration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.floor(s / 60)} min ${s % 60} s`;
  return `${Math.floor(s / 3600)} h ${Math.floor((s % 3600) / 60)} min`;
}

const figure = 'tabular-nums font-semibold';

/** Pause or resume after a confirmation; the optional message is shown live to everyone waiting. */
function PauseDialog({ drop, pending, onConfirm }: { drop: AdminDrop; pending: boolean; onConfirm: (change: { paused: boolean; message: string | null }) => void }) {
  const id = useId();
  const [open, setOpen] = useState(false);
  const [message, setMessage] = useState(drop.message ?? '');
  const pausing = !drop.paused;
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (next) setMessage(drop.message ?? '');
      }}
    >
      <DialogTrigger asChild>
        <Button type="button" size="lg" variant={pausing ? 'outline' : 'default'} className="min-h-12 w-full sm:w-auto" disabled={pending}>
          {pausing ? <Pause className="h-4 w-4" aria-hidden="true" /> : <Play className="h-4 w-4" aria-hidden="true" />}
          {pausing ? 'Pause' : 'Resume'} admissions
        </Button>
      </DialogTrigger>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>{pausing ? `Pause ${drop.name}?` : `Resume ${drop.name}?`}</DialogTitle>
          <DialogDescription>
            {pausing
              ? `Nobody more is let in while paused; the ${drop.queueLength} waiting keep their places.`
              : 'Shoppers are let in again at the set rate.'}
          </DialogDescription>
        </DialogHeader>
        <form
          onSubmit={(e) => {
            e.preventDefault();
            onConfirm({ paused: pausing, message: message.trim() || null });
            setOpen(false);
          }}
          className="grid gap-3"
        >
          <label htmlFor={`${id}-msg`} className="text-sm font-semibold">
            Message to everyone waiting (optional)
          </label>
          <Input
            id={`${id}-msg`}
            value={message}
            maxLength={200}
            placeholder="Payment provider hiccup — your place is safe"
            onChange={(e) => setMessage(e.target.value)}
          />
          <div className="flex flex-wrap justify-end gap-2">
            <DialogClose asChild>
              <Button type="button" variant="outline">
                Cancel
              </Button>
            </DialogClose>
            <Button type="submit">{pausing ? 'Pause now' : 'Resume now'}</Button>
          </div>
        </form>
      </DialogContent>
    </Dialog>
  );
}

function DropControls({ drop }: { drop: AdminDrop }) {
  const update = useUpdateDrop();
  const id = useId();
  // The owner's edit wins over the 2-second refresh until it is saved.
  const [draft, setDraft] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const value = draft ?? String(drop.admitPerMinute);

  const send = (change: AdminDropUpdate, done: string, onDone?: () => void) => {
    setError(null);
    setSaved(null);
    update.mutate(
      { productId: drop.productId, update: change },
      {
        onSuccess: () => {
          onDone?.();
          setSaved(done);
        },
        onError: (err) => setError(adminErrorMessage(err)),
      },
    );
  };
  const save = (e: FormEvent) => {
    e.preventDefault();
    // Sent as typed: the server says what is wrong with it (a whole number from 1 to 100000).
    send({ admitPerMinute: value.trim() === '' ? Number.NaN : Number(value) }, 'Rate saved', () => setDraft(null));
  };

  return (
    <div className="grid gap-2">
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
              setSaved(null);
            }}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? `${id}-error` : `${id}-unit`}
            className="h-11 w-24 text-sm"
          />
          <span id={`${id}-unit`} className="text-xs text-muted">
            / min
          </span>
          <Button type="submit" size="sm" variant="outline" className="min-h-11" disabled={update.isPending}>
            Save
          </Button>
        </form>
        <PauseDialog
          drop={drop}
          pending={update.isPending}
          onConfirm={(change) => send(change, change.paused ? 'Admissions paused' : 'Admissions resumed')}
        />
      </div>
      {drop.message && (
        <div className="flex flex-wrap items-center gap-2 text-sm">
          <span>
            Shown to shoppers: <q className="font-semibold">{drop.message}</q>
          </span>
          <Button type="button" size="sm" variant="outline" disabled={update.isPending} onClick={() => send({ message: null }, 'Message cleared')}>
            Clear message
          </Button>
        </div>
      )}
      <p aria-live="polite" className="text-xs empty:hidden">
        {saved ?? ''}
      </p>
      {error && (
        <p id={`${id}-error`} role="alert" className="text-xs font-semibold text-red-700">
          {error}
        </p>
      )}
    </div>
  );
}

/** A size's name in the owner's table: 'M', 'M · Black' where colours are stocked apart, the one run's pieces apart. */
function sizeName(s: AdminDropSize): string {
  if (s.size === null) return 'Sold before sizes';
  return s.colour ? `${s.size} · ${s.colour}` : s.size;
}

/**
 * Held / sold / left of each size of an edition split into sizes (ADR 015), in run order; a size with none
 * left reads 'sold out' beside its 0. Narrow enough for a 375 px phone.
 */
function SizeTable({ drop: d }: { drop: AdminDrop & { sizes: AdminDropSize[] } }) {
  return (
    <table className="w-full max-w-md text-sm">
      <caption className="sr-only">Held, sold and left per size of {d.name}</caption>
      <thead>
        <tr className="text-left text-muted">
          <th scope="col" className="py-0.5 pr-2 font-normal">
            Size
          </th>
          <th scope="col" className="px-2 py-0.5 text-right font-normal">
            Held
          </th>
          <th scope="col" className="px-2 py-0.5 text-right font-normal">
            Sold
          </th>
          <th scope="col" className="py-0.5 pl-2 text-right font-normal">
            Left
          </th>
        </tr>
      </thead>
      <tbody>
        {d.sizes.map((s) => (
          <tr key={`${s.size ?? ''}|${s.colour ?? ''}`} className="border-t border-neutral-200">
            <th scope="row" className="break-words py-0.5 pr-2 text-left font-semibold">
              {sizeName(s)}
            </th>
            <td className={cn('px-2 py-0.5 text-right', figure)}>{s.held}</td>
            <td className={cn('px-2 py-0.5 text-right', figure)}>{s.sold}</td>
            <td className={cn('py-0.5 pl-2 text-right', figure)}>
              {s.left}
              {s.size !== null && s.left === 0 && s.held === 0 && <span className="ml-1 font-normal text-muted">sold out</span>}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

const timeFormat = () => new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit', second: '2-digit' });

/** One drop as a card: fits a 375 px phone without sideways scrolling, the same at 1280 px. */
export function DropCard({ drop: d }: { drop: AdminDrop }) {
  const live = d.phase === 'open' || d.phase === 'raffle';
  const stuck = d.phase === 'open' && !d.paused && d.queueLength > 0 && d.admittedLastMinute === 0;
  return (
    <li className="grid gap-3 border-2 border-ink bg-white p-4" aria-labelledby={`drop-${d.productId}`}>
      <div className="flex flex-wrap items-start justify-between gap-2">
        <h3 id={`drop-${d.productId}`} className="min-w-0 break-words font-semibold">
          {d.name}
        </h3>
        <span className="flex flex-wrap items-center gap-2">
          <span className={cn('inline-block border px-2 py-0.5 text-xs font-bold uppercase tracking-wide', PHASE_STYLE[d.phase])}>
            {PHASE_LABEL[d.phase]}
          </span>
          {d.paused && <span className="text-xs font-bold uppercase text-red-700">Paused</span>}
        </span>
      </div>
      <p className="text-sm text-muted">
        Release <time dateTime={d.releaseAt}>{releaseText(d.releaseAt)}</time>
      </p>
      <dl className="grid grid-cols-2 gap-x-4 gap-y-1 text-sm sm:grid-cols-4">
        <div>
          <dt className="text-muted">Waiting</dt>
          <dd className={figure}>{d.queueLength}</dd>
        </div>
        <div>
          <dt className="text-muted">Admitted</dt>
          <dd className={figure}>
            {d.admitted} <span className="font-normal text-muted">({d.admittedPerSecond.toFixed(1)}/s)</span>
          </dd>
        </div>
        <div>
          <dt className="text-muted">Held / sold / left</dt>
          <dd className={figure}>
            {d.held} / {d.sold} / {d.left} <span className="font-normal text-muted">of {d.editionSize}</span>
          </dd>
        </div>
        {/* A split edition tells how it sold out in a sentence below its sizes; one pool keeps this figure. */}
        {!d.sizes && (
          <div>
            <dt className="text-muted">Sold out in</dt>
            <dd className={figure}>{d.sellOutSeconds === null ? '—' : formatDuration(d.sellOutSeconds)}</dd>
          </div>
        )}
        {live && (
          <div>
            <dt className="text-muted">Next admission</dt>
            <dd className={figure}>
              {d.nextAdmissionAt ? <time dateTime={d.nextAdmissionAt}>{timeFormat().format(new Date(d.nextAdmissionAt))}</time> : '—'}
            </dd>
          </div>
        )}
      </dl>
      {d.sizes && <SizeTable drop={{ ...d, sizes: d.sizes }} />}
      {d.sizes && d.sellOutSeconds !== null && (
        <p className="text-sm font-semibold">{sizedSellOutStory(d.editionSize, d.sellOutSeconds, d.firstSoldOut ?? null)}</p>
      )}
      {stuck && (
        <p role="alert" className="border-l-4 border-red-700 bg-red-50 px-2 py-1 text-sm font-semibold text-red-800">
          0 admitted in the last minute while {d.queueLength} wait: check the rate and that admissions are not paused.
        </p>
      )}
      {/* Admission controls only while a drop can still let people in. */}
      {d.phase === 'sold_out' || d.phase === 'ended' ? null : <DropControls drop={d} />}
    </li>
  );
}

/** The owner's Drops view (ADR 010): upcoming and live drops, their queue and stock, admission controls. */
export function DropsPanel() {
  const drops = useAdminDrops();
  const list = drops.data;

  return (
    <div className="grid grid-cols-1 gap-6">
      <div className="flex flex-wrap items-end justify-between gap-2">
        <div>
          <h2 className="font-display text-2xl uppercase tracking-wide">Drops</h2>
          <p className="mt-1 text-sm text-muted">
            Products with a release time. Live figures refresh every 2 seconds; the admission rate is shoppers let in
            per minute.
          </p>
        </div>
        <UpdatedAt at={drops.dataUpdatedAt} what="drops" refreshing={drops.isFetching} onRefresh={() => void drops.refetch()} />
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
        <ul className="grid grid-cols-1 gap-4" aria-label="Drops">
          {list.map((d) => (
            <DropCard key={d.productId} drop={d} />
          ))}
        </ul>
      )}
    </div>
  );
}
