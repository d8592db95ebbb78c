import { useId, useState, type FormEvent } from 'react';
import { Dices } from 'lucide-react';
import { DRAW_PIECES_MESSAGE, type AdminDraw, type AdminDrawEntry } from '../../../common/contracts/draws';
import type { AdminProduct } from '../../../common/contracts/admin';
import {
  describeFairness,
  FAIRNESS_LOOKBACK_MAX,
  FAIRNESS_LOOKBACK_MIN,
  normaliseFairness,
  type DrawFairness,
  type DrawFairnessRule,
} from '../../../common/domain/draw-fairness';
import { DRAW_PIECES_MAX } from '../../../common/domain/draw-allocation';
import { scheduleProblem } from '../../../common/domain/draw-lifecycle';
import { displayPrice } from '../../../common/domain/money';
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
import { FormField } from '../../components/ui/form-field';
import { Input } from '../../components/ui/input';
import { cn } from '../../lib/cn';
import { useNow } from '../../lib/release-clock';
import { DRAW_STATUS_LABEL, drawActions, drawFigures, winnersCsv } from './draws-counts';
import {
  useDrawEntries,
  fetchPublicDraw,
  useAdminDraws,
  useCancelDraw,
  useCreateDraw,
  useRunDraw,
  useUpdateDraw,
} from './draws-api';
import { PanelEmpty, PanelError, PanelHeading, PanelLoading, UpdatedAt } from './panel-parts';
import { localInputToIso, localTimeZone } from './release-time';
import { adminErrorMessage } from './use-admin-session';
import { formatShopDateTime } from '../../../common/domain/date-time-format';

/** A draw's times in the owner's own zone (the browser's), in the shop's one format. */
const when = (iso: string) => formatShopDateTime(iso, { zoneName: true });

const selectClass =
  'h-11 w-full cursor-pointer border-2 border-neutral-300 bg-white px-3 text-base text-ink focus-visible:border-ink focus-visible:outline-3 focus-visible:outline-offset-0 focus-visible:outline-blue-600 aria-[invalid=true]:border-red-700';

const FAIRNESS_CHOICES: Array<{ rule: DrawFairnessRule; label: string; hint: string }> = [
  { rule: 'off', label: 'Off', hint: 'Everyone counts once.' },
  {
    rule: 'loyalty',
    label: 'Loyalty',
    hint: 'Entrants who lost their last draws here count more: one more time per loss in a row.',
  },
  {
    rule: 'sit_out',
    label: 'Recent winners sit out',
    hint: 'Anyone who won one of the last draws here is removed before this one.',
  },
];
const LOOKBACKS = Array.from(
  { length: FAIRNESS_LOOKBACK_MAX - FAIRNESS_LOOKBACK_MIN + 1 },
  (_, i) => FAIRNESS_LOOKBACK_MIN + i,
);

/**
 * The owner's fair-over-time toggle (common/domain/draw-fairness.ts): off, loyalty or recent winners sit
 * out, and how many earlier draws count; the rule as shoppers will read it underneath.
 */
function FairnessFields({ value, onChange }: { value: DrawFairness; onChange: (f: DrawFairness) => void }) {
  const name = useId();
  const lookbackId = useId();
  const previewId = useId();
  const lookback = value.lookback ?? 1;
  return (
    <fieldset className="grid min-w-0 gap-3" aria-describedby={previewId}>
      <legend className="mb-1 text-sm font-semibold">Fair over time</legend>
      <div className="grid gap-2">
        {FAIRNESS_CHOICES.map((c) => (
          <div key={c.rule} className="grid gap-0.5">
            <label className="flex min-h-11 cursor-pointer items-center gap-3 text-sm font-semibold">
              <input
                type="radio"
                name={name}
                value={c.rule}
                checked={value.rule === c.rule}
                aria-describedby={`${name}-${c.rule}-hint`}
                onChange={() => onChange(normaliseFairness({ rule: c.rule, lookback }))}
                className="size-5 shrink-0 accent-black"
              />
              {c.label}
            </label>
            <p id={`${name}-${c.rule}-hint`} className="pl-8 text-sm text-muted">
              {c.hint}
            </p>
          </div>
        ))}
      </div>
      {value.rule !== 'off' && (
        <div className="grid gap-1">
          <label htmlFor={lookbackId} className="text-sm font-semibold">
            Earlier draws that count
          </label>
          <select
            id={lookbackId}
            className={cn(selectClass, 'sm:max-w-48')}
            value={lookback}
            onChange={(e) => onChange({ rule: value.rule, lookback: Number(e.target.value) })}
          >
            {LOOKBACKS.map((k) => (
              <option key={k} value={k}>
                {k === 1 ? 'The last draw' : `The last ${k} draws`}
              </option>
            ))}
          </select>
        </div>
      )}
      <p id={previewId} className="text-sm text-muted">
        Shoppers read:{' '}
        {describeFairness(value) ?? 'Everyone counts once: earlier draws here make no difference.'}
      </p>
    </fieldset>
  );
}

/** The owner's new draw: a product, its three times (entries open, entries close, the draw) and its fairness rule. */
function CreateDrawForm({ products }: { products: AdminProduct[] | undefined }) {
  const create = useCreateDraw();
  const [productId, setProductId] = useState('');
  const [opensAt, setOpensAt] = useState('');
  const [closesAt, setClosesAt] = useState('');
  const [drawAt, setDrawAt] = useState('');
  const [fairness, setFairness] = useState<DrawFairness>({ rule: 'off', lookback: null });
  const [pieces, setPieces] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const zone = localTimeZone();

  const submit = (e: FormEvent) => {
    e.preventDefault();
    setDone(null);
    const times = {
      opensAt: localInputToIso(opensAt),
      closesAt: localInputToIso(closesAt),
      drawAt: localInputToIso(drawAt),
    };
    if (!productId) return setProblem('Choose the product to sell by draw.');
    if (!times.opensAt || !times.closesAt || !times.drawAt) return setProblem('Set all three times.');
    // The server's own rule (common/domain/draw-lifecycle.ts), checked here to save a round trip.
    const wrong = scheduleProblem({
      opensAtMs: Date.parse(times.opensAt),
      closesAtMs: Date.parse(times.closesAt),
      drawAtMs: Date.parse(times.drawAt),
    });
    if (wrong) return setProblem(wrong);
    // Empty: every piece. Otherwise a whole number the server checks again (common/contracts/draws.ts).
    const count = pieces.trim() === '' ? null : Number(pieces);
    if (count !== null && (!Number.isInteger(count) || count < 1 || count > DRAW_PIECES_MAX)) {
      return setProblem(DRAW_PIECES_MESSAGE);
    }
    setProblem(null);
    create.mutate(
      { productId, ...times, fairness, pieces: count },
      {
        onSuccess: (draw) => {
          setDone(`Draw created for ${draw.productName}. Its commitment is published.`);
          setProductId('');
          setOpensAt('');
          setClosesAt('');
          setDrawAt('');
          setPieces('');
          setFairness({ rule: 'off', lookback: null });
        },
        onError: (err) => setProblem(adminErrorMessage(err)),
      },
    );
  };

  return (
    <form
      onSubmit={submit}
      noValidate
      className="grid gap-4 border-2 border-ink bg-white p-4"
      aria-labelledby="new-draw-heading"
    >
      <h3 id="new-draw-heading" className="font-display text-xl uppercase">
        New draw
      </h3>
      <p className="text-sm text-muted">
        Shoppers enter during the window; their cards are authorised, not charged. The draw must run within 7
        days of the window opening. Times are in {zone}.
      </p>
      <FormField label="Product">
        {(a) => (
          <select
            {...a}
            className={selectClass}
            value={productId}
            onChange={(e) => setProductId(e.target.value)}
          >
            <option value="">Choose a product</option>
            {(products ?? []).map((p) => (
              <option key={p.id} value={p.id}>
                {p.name}
              </option>
            ))}
          </select>
        )}
      </FormField>
      <div className="grid gap-4 md:grid-cols-3">
        <FormField label="Entries open">
          {(a) => (
            <Input
              {...a}
              type="datetime-local"
              value={opensAt}
              onChange={(e) => setOpensAt(e.target.value)}
            />
          )}
        </FormField>
        <FormField label="Entries close">
          {(a) => (
            <Input
              {...a}
              type="datetime-local"
              value={closesAt}
              onChange={(e) => setClosesAt(e.target.value)}
            />
          )}
        </FormField>
        <FormField label="Draw time">
          {(a) => (
            <Input {...a} type="datetime-local" value={drawAt} onChange={(e) => setDrawAt(e.target.value)} />
          )}
        </FormField>
      </div>
      <FormField
        label="Pieces in the draw"
        description="Empty: every piece. A number draws that many; the rest go on sale after the draw, at the product's release time and through its waiting room if it has them."
      >
        {(a) => (
          <Input
            {...a}
            inputMode="numeric"
            className="sm:max-w-40"
            value={pieces}
            onChange={(e) => setPieces(e.target.value)}
          />
        )}
      </FormField>
      <FairnessFields value={fairness} onChange={setFairness} />
      {problem && (
        <p role="alert" className="text-sm font-medium text-red-700">
          {problem}
        </p>
      )}
      <p aria-live="polite" className="text-sm font-semibold empty:hidden">
        {done ?? ''}
      </p>
      <Button type="submit" className="w-full sm:w-auto sm:justify-self-start" disabled={create.isPending}>
        {create.isPending ? 'Creating…' : 'Create draw'}
      </Button>
    </form>
  );
}

/** An irreversible step (run, cancel) behind a confirmation. */
function ConfirmButton({
  label,
  title,
  description,
  confirm,
  variant = 'outline',
  pending,
  onConfirm,
}: {
  label: string;
  title: string;
  description: string;
  confirm: string;
  variant?: 'outline' | 'default' | 'destructive';
  pending: boolean;
  onConfirm: () => void;
}) {
  const [open, setOpen] = useState(false);
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>
        <Button type="button" variant={variant} className="min-h-11 w-full sm:w-auto" disabled={pending}>
          {label}
        </Button>
      </DialogTrigger>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>{title}</DialogTitle>
          <DialogDescription>{description}</DialogDescription>
        </DialogHeader>
        <div className="flex flex-wrap justify-end gap-2">
          <DialogClose asChild>
            <Button type="button" variant="outline">
              Back
            </Button>
          </DialogClose>
          <Button
            type="button"
            variant={variant === 'destructive' ? 'destructive' : 'default'}
            onClick={() => {
              setOpen(false);
              onConfirm();
            }}
          >
            {confirm}
          </Button>
        </div>
      </DialogContent>
    </Dialog>
  );
}

function downloadText(name: string, text: string, type: string) {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** Changing a scheduled draw's rule, possible until its entry window opens (the server says so too). */
function EditFairness({ draw }: { draw: AdminDraw }) {
  const update = useUpdateDraw();
  const [value, setValue] = useState<DrawFairness>(draw.fairness);
  const [problem, setProblem] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  const changed = value.rule !== draw.fairness.rule || value.lookback !== draw.fairness.lookback;
  const save = (e: FormEvent) => {
    e.preventDefault();
    setSaved(false);
    update.mutate(
      { id: draw.id, patch: { fairness: value } },
      {
        onSuccess: () => {
          setProblem(null);
          setSaved(true);
        },
        onError: (err) => setProblem(adminErrorMessage(err)),
      },
    );
  };
  return (
    <form onSubmit={save} noValidate className="grid gap-3 border border-black/15 p-3">
      <FairnessFields value={value} onChange={setValue} />
      {problem && (
        <p role="alert" className="text-sm font-medium text-red-700">
          {problem}
        </p>
      )}
      <p aria-live="polite" className="text-sm font-semibold empty:hidden">
        {saved && !changed ? 'Saved: the draw page shows the new rule.' : ''}
      </p>
      <Button
        type="submit"
        variant="outline"
        className="w-full sm:w-auto sm:justify-self-start"
        disabled={!changed || update.isPending}
      >
        {update.isPending ? 'Saving…' : 'Save the rule'}
      </Button>
    </form>
  );
}

/** What the owner reads for an entry's status. */
const ENTRY_STATUS_LABEL: Record<AdminDrawEntry['status'], string> = {
  pending: 'Not confirmed yet',
  confirmed: 'Confirmed',
  withdrawn: 'Withdrawn',
  lapsed: 'Never confirmed',
  removed: 'Removed',
  selected: 'Drawn, charging',
  waiting: 'Alternate',
  won: 'Won',
  capture_failed: 'Card declined, passed on',
  lost: 'Not drawn',
  cancelled: 'Cancelled',
};

/** Every entry of a draw: ranked ones first, each with its sizes and outcome, and why a removed one left. */
function DrawEntries({ drawId, productName }: { drawId: string; productName: string }) {
  const entries = useDrawEntries(drawId, true);
  if (entries.isPending) return <p className="text-sm text-muted">Loading entries…</p>;
  if (entries.isError)
    return (
      <p role="alert" className="text-sm font-medium text-red-700">
        {adminErrorMessage(entries.error)}
      </p>
    );
  return (
    <ol aria-label={`Entries for ${productName}`} className="grid gap-2">
      {entries.data.map((e) => (
        <li key={e.publicId} className="grid gap-0.5 border border-black/15 p-2 text-sm">
          <p className="flex flex-wrap items-baseline justify-between gap-x-2">
            <span className="font-semibold">
              {e.rank !== null ? `#${e.rank} ` : ''}
              {e.name}
            </span>
            <span className="text-xs font-bold uppercase tracking-wide">{ENTRY_STATUS_LABEL[e.status]}</span>
          </p>
          <p className="break-all text-muted">{e.email}</p>
          <p>
            Size {e.size ?? 'any'}
            {e.secondSize ? `, then ${e.secondSize}` : ''}
            {e.weight > 1 ? ` · counts ${e.weight} times` : ''}
            {e.allocatedSize ? ` · given ${e.allocatedSize}` : ''}
            {e.orderNumber ? ` · order ${e.orderNumber}` : ''}
          </p>
          {e.removedReason && <p className="text-muted">{e.removedReason}</p>}
        </li>
      ))}
    </ol>
  );
}

function DrawCard({ draw, now }: { draw: AdminDraw; now: number }) {
  const headingId = useId();
  const run = useRunDraw();
  const cancel = useCancelDraw();
  const [problem, setProblem] = useState<string | null>(null);
  const f = drawFigures(draw.counts);
  const can = drawActions(draw, now);
  const figures: Array<[string, number]> = [
    ['Entries', f.entries],
    ['Confirmed', f.confirmed],
    // Under the sit_out rule recent winners are removed before the draw too (counted with the duplicates).
    [
      draw.fairness.rule === 'sit_out' ? 'Removed: duplicates, recent winners' : 'Duplicates removed',
      f.duplicatesRemoved,
    ],
    ['In the draw', f.inDraw],
    ['Drawn', f.drawn],
    ['Charged', f.captured],
    ['Declined, passed on', f.failed],
    ['Released, not charged', f.released],
  ];

  const exportWinners = async () => {
    setProblem(null);
    try {
      const pub = await fetchPublicDraw(draw.id);
      downloadText(`draw-${draw.id}-winners.csv`, winnersCsv(pub), 'text/csv;charset=utf-8');
    } catch (err) {
      setProblem(adminErrorMessage(err));
    }
  };
  const onError = (err: Error) => setProblem(adminErrorMessage(err));
  const [showEntries, setShowEntries] = useState(false);
  const entriesId = useId();

  return (
    <li>
      <article aria-labelledby={headingId} className="grid gap-4 border-2 border-ink bg-white p-4">
        <div className="flex flex-wrap items-start justify-between gap-2">
          <div className="min-w-0">
            <h3 id={headingId} className="font-display text-xl uppercase leading-tight">
              {draw.productName}
            </h3>
            <p className="text-sm text-muted">{displayPrice(draw.price)}</p>
          </div>
          <span
            className={cn(
              'border-2 px-2 py-0.5 text-xs font-bold uppercase tracking-wide',
              draw.status === 'open'
                ? 'border-ink bg-accent'
                : draw.status === 'cancelled'
                  ? 'border-neutral-400 text-muted'
                  : 'border-ink',
            )}
          >
            {DRAW_STATUS_LABEL[draw.status]}
          </span>
        </div>
        <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
          <dt className="font-semibold">Entries open</dt>
          <dd>{when(draw.opensAt)}</dd>
          <dt className="font-semibold">Entries close</dt>
          <dd>{when(draw.closesAt)}</dd>
          <dt className="font-semibold">Draw</dt>
          <dd>{when(draw.drawAt)}</dd>
          <dt className="font-semibold">Pieces</dt>
          <dd>{draw.pieces === null ? 'Every piece' : `${draw.pieces} by draw, the rest on sale after it`}</dd>
          <dt className="font-semibold">Fair over time</dt>
          <dd className="min-w-0">{describeFairness(draw.fairness) ?? 'Off: everyone counts once.'}</dd>
        </dl>
        {draw.status === 'scheduled' && now < Date.parse(draw.opensAt) && <EditFairness draw={draw} />}
        <dl className="grid grid-cols-2 gap-2 sm:grid-cols-4" aria-label="Entries">
          {figures.map(([label, value]) => (
            <div key={label} className="border border-black/15 p-2">
              <dt className="text-xs text-muted">{label}</dt>
              <dd className="text-lg font-semibold tabular-nums">{value}</dd>
            </div>
          ))}
        </dl>
        {f.entries > 0 && (
          <div className="grid gap-2">
            <Button
              type="button"
              variant="outline"
              className="min-h-11 w-full sm:w-auto sm:justify-self-start"
              aria-expanded={showEntries}
              aria-controls={entriesId}
              onClick={() => setShowEntries((v) => !v)}
            >
              {showEntries ? 'Hide entries' : `Show entries (${f.entries})`}
            </Button>
            <div id={entriesId} hidden={!showEntries}>
              {showEntries && <DrawEntries drawId={draw.id} productName={draw.productName} />}
            </div>
          </div>
        )}
        {problem && (
          <p role="alert" className="text-sm font-medium text-red-700">
            {problem}
          </p>
        )}
        <div className="flex flex-col gap-2 sm:flex-row sm:flex-wrap">
          {can.run && (
            <ConfirmButton
              label="Run now"
              title={`Run the draw for ${draw.productName}?`}
              description="The seed is revealed, every confirmed entry is ranked, and the winners' cards are charged. This cannot be undone."
              confirm="Run the draw"
              variant="default"
              pending={run.isPending}
              onConfirm={() => run.mutate(draw.id, { onError })}
            />
          )}
          {can.cancel && (
            <ConfirmButton
              label="Cancel draw"
              title={`Cancel the draw for ${draw.productName}?`}
              description="Every entry is cancelled and every card authorisation released. Nobody is charged. This cannot be undone."
              confirm="Cancel the draw"
              variant="destructive"
              pending={cancel.isPending}
              onConfirm={() => cancel.mutate(draw.id, { onError })}
            />
          )}
          {can.winners && (
            <Button
              type="button"
              variant="outline"
              className="min-h-11 w-full sm:w-auto"
              onClick={() => void exportWinners()}
            >
              Export winners (CSV)
            </Button>
          )}
          <a
            href={`/draws/${draw.id}`}
            target="_blank"
            rel="noopener"
            className="inline-flex min-h-11 items-center justify-center px-3 text-sm font-semibold underline underline-offset-4 hover:no-underline focus-visible:outline-3 focus-visible:outline-blue-600"
          >
            Public page
          </a>
        </div>
      </article>
    </li>
  );
}

/**
 * The Draws tab: every draw with its figures, a new draw for a product, run now, cancel, and the winners'
 * export. The export lists public ids, sizes and ranks; the winners' names and addresses are on their orders.
 */
export function DrawsPanel({ products }: { products: AdminProduct[] | undefined }) {
  const draws = useAdminDraws();
  const live = (draws.data ?? []).some((d) => d.status === 'scheduled' || d.status === 'open');
  const now = useNow(live);
  return (
    <div className="grid gap-6">
      <PanelHeading title="Draws">
        <UpdatedAt
          at={draws.dataUpdatedAt}
          onRefresh={() => void draws.refetch()}
          what="draws"
          refreshing={draws.isFetching}
        />
      </PanelHeading>
      <CreateDrawForm products={products} />
      {draws.isLoading ? (
        <PanelLoading>Loading draws…</PanelLoading>
      ) : draws.isError ? (
        <PanelError what="the draws" />
      ) : (draws.data ?? []).length === 0 ? (
        <PanelEmpty icon={Dices}>
          <p className="font-semibold">No draws yet.</p>
          <p className="text-sm text-muted">Create one above to sell a piece by draw.</p>
        </PanelEmpty>
      ) : (
        <ul className="grid gap-4 lg:grid-cols-2" aria-label="Draws">
          {draws.data!.map((d) => (
            <DrawCard key={d.id} draw={d} now={now || Date.now()} />
          ))}
        </ul>
      )}
    </div>
  );
}
