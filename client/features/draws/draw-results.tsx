import { useState, type FormEvent } from 'react';
import { ChevronDown } from 'lucide-react';
import { Link } from 'wouter';
import type { PublicDraw } from '../../../common/contracts/draws';
import { rankEntries, seedMatchesCommitment } from '../../../common/domain/draw';
import { describeFairness } from '../../../common/domain/draw-fairness';
import { displayPrice } from '../../../common/domain/money';
import { ReleaseTime } from '../../components/drop-countdown';
import { Button, buttonVariants } from '../../components/ui/button';
import { FormField } from '../../components/ui/form-field';
import { Input } from '../../components/ui/input';
import { cn } from '../../lib/cn';
import { Commitment } from './draw-panel';
import { drawPhase, findRank, outcomeLabel, parsePublicId } from './draw-view';
import { useNow } from '../../lib/release-clock';

/**
 * The public page of a draw (/draws/:id): it leads with where the draw stands and, once it has run, who won
 * and the visitor's own rank; then how to check it (the verifier's one command, or the browser); the hex
 * (the commitment, the seed, every entry's public id and weight, the method by hand) stays behind "Verify".
 */
export function DrawResults({ draw, entryId }: { draw: PublicDraw; entryId: string | null }) {
  const phase = drawPhase(draw, useNow(draw.status === 'scheduled' || draw.status === 'open'));
  return (
    <div className="grid gap-12">
      <header className="grid gap-3">
        <p className="type-eyebrow text-muted">The draw</p>
        <h1 className="type-display-sm">
          <Link href={`/product/${draw.productId}`} className="hover:underline">
            {draw.productName}
          </Link>
        </h1>
        <p className="max-w-2xl text-base">
          {phase === 'upcoming' && 'Entries are not open yet.'}
          {phase === 'open' && 'Entries are open.'}
          {phase === 'closed' && 'Entries are closed; the draw has not run yet.'}
          {phase === 'result' &&
            (draw.status === 'settled'
              ? 'The draw has run and every entrant has their result.'
              : 'The draw has run; the winners are being charged.')}
          {phase === 'cancelled' &&
            'This draw was cancelled. Every card authorisation was released; nobody was charged.'}
        </p>
      </header>

      {phase === 'result' && <Winners draw={draw} entryId={entryId} />}

      <HowToCheck draw={draw} />

      <section aria-labelledby="details-heading" className="grid gap-4 border-t border-hairline pt-6">
        <h2 id="details-heading" className="type-heading">
          The details
        </h2>
        <dl className="grid max-w-xl grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
          <dt className="font-semibold">Entries open</dt>
          <dd>
            <ReleaseTime releaseAt={draw.opensAt} />
          </dd>
          <dt className="font-semibold">Entries close</dt>
          <dd>
            <ReleaseTime releaseAt={draw.closesAt} />
          </dd>
          <dt className="font-semibold">Draw</dt>
          <dd>
            <ReleaseTime releaseAt={draw.drawAt} />
          </dd>
          <dt className="font-semibold">Price</dt>
          <dd>{displayPrice(draw.price)}</dd>
          {draw.pieces !== null && (
            <>
              <dt className="font-semibold">Pieces in the draw</dt>
              <dd>{draw.pieces}: the rest go on sale after the draw</dd>
            </>
          )}
          <dt className="font-semibold">
            {phase === 'result' ? 'Entries in the draw' : 'Confirmed entries'}
          </dt>
          <dd>{draw.entryCount}</dd>
          {phase === 'result' && (
            <>
              <dt className="font-semibold">Duplicates removed</dt>
              <dd>{draw.removedDuplicates}</dd>
            </>
          )}
          {phase === 'result' && draw.fairness.rule === 'sit_out' && (
            <>
              <dt className="font-semibold">Recent winners sitting out</dt>
              <dd>{draw.removedRecentWinners}</dd>
            </>
          )}
        </dl>
        <FairnessRule draw={draw} />
      </section>

      <VerifyFold draw={draw} phase={phase} entryId={entryId} />
    </div>
  );
}

/** The owner's fair-over-time rule of this draw, in plain words (common/domain/draw-fairness.ts). */
function FairnessRule({ draw }: { draw: PublicDraw }) {
  const rule = describeFairness(draw.fairness);
  return (
    <section
      aria-labelledby="fairness-heading"
      className="grid max-w-2xl gap-1 text-sm"
      data-testid="draw-fairness"
    >
      <h2 id="fairness-heading" className="font-semibold">
        Fair over time
      </h2>
      <p>{rule ?? 'Everyone counts once: earlier draws here make no difference to this one.'}</p>
      {draw.fairness.rule === 'loyalty' && (
        <p className="text-neutral-700">
          Entrants are recognised by their e-mail address. Each entry's weight is fixed when the draw runs and
          published with the results below, so the order can still be checked.
        </p>
      )}
    </section>
  );
}

function YourRank({ draw, initial }: { draw: PublicDraw; initial: string | null }) {
  const [id, setId] = useState<string | null>(initial);
  const [typed, setTyped] = useState(initial ?? '');
  const [error, setError] = useState<string | undefined>();
  const mine = id ? findRank(draw, id) : null;

  const look = (e: FormEvent) => {
    e.preventDefault();
    const parsed = parsePublicId(typed);
    if (!parsed) {
      setError('An entry id is 32 letters and digits, as on your entry page.');
      setId(null);
      return;
    }
    setError(undefined);
    setId(parsed);
  };

  return (
    <div className="grid gap-3 border border-hairline bg-surface p-4">
      <form
        onSubmit={look}
        className="grid gap-3 sm:grid-cols-[1fr_auto] sm:items-end"
        aria-label="Find your rank"
      >
        <FormField label="Your entry id" error={error} description="It is on your entry page.">
          {(a) => (
            <Input
              {...a}
              value={typed}
              onChange={(e) => setTyped(e.target.value)}
              autoComplete="off"
              spellCheck={false}
              className="font-mono"
            />
          )}
        </FormField>
        <Button type="submit" variant="outline" className="sm:mb-[1.375rem]">
          Find my rank
        </Button>
      </form>
      <p aria-live="polite" className="text-sm font-semibold empty:hidden" data-testid="your-rank">
        {id && !error
          ? mine
            ? `Your rank: ${mine.rank} of ${draw.entries.length} (${outcomeLabel(mine.outcome)}).`
            : 'That entry is not in the draw.'
          : ''}
      </p>
    </div>
  );
}

/** Who won (their public ids, as on each winner's entry page), and the visitor's own rank. */
function Winners({ draw, entryId }: { draw: PublicDraw; entryId: string | null }) {
  const mine = entryId ? parsePublicId(entryId) : null;
  return (
    <section aria-labelledby="winners-heading" className="grid gap-4">
      <h2 id="winners-heading" className="type-heading">
        Who won
      </h2>
      {draw.winners.length === 0 ? (
        <p className="text-sm">No winners yet.</p>
      ) : (
        <>
          <p className="text-sm text-muted">
            {draw.winners.length} of {draw.entries.length} {draw.entries.length === 1 ? 'entry' : 'entries'}{' '}
            won a piece. Each entry is known by its public id, on its entrant&apos;s entry page.
          </p>
          <ul className="grid divide-y divide-hairline border-y border-hairline text-sm" aria-label="Winners">
            {draw.winners.map((w) => (
              <li
                key={w.publicId}
                className={cn(
                  'flex flex-wrap items-baseline gap-x-4 py-2',
                  w.publicId === mine && 'font-semibold',
                )}
              >
                <span className="type-mono break-all text-xs leading-5">{w.publicId}</span>
                {w.size && <span>{w.size}</span>}
                {w.publicId === mine && <span className="type-eyebrow">You</span>}
              </li>
            ))}
          </ul>
        </>
      )}
      <YourRank draw={draw} initial={mine} />
    </section>
  );
}

/** Every entry in rank order, with its weight and outcome (inside the Verify fold). */
function Ranking({ draw, entryId }: { draw: PublicDraw; entryId: string | null }) {
  const mine = entryId ? parsePublicId(entryId) : null;
  return (
    <div
      className="overflow-x-auto border border-hairline"
      role="region"
      aria-labelledby="ranking-caption"
      tabIndex={0}
    >
      <table className="w-full min-w-[34rem] text-left text-sm">
        <caption id="ranking-caption" className="p-3 text-left font-semibold">
          Every entry in the draw, in rank order
        </caption>
        <thead className="border-y border-hairline bg-bone">
          <tr>
            <th scope="col" className="px-3 py-2">
              Rank
            </th>
            <th scope="col" className="px-3 py-2">
              Entry
            </th>
            <th scope="col" className="px-3 py-2">
              Weight
            </th>
            <th scope="col" className="px-3 py-2">
              Sizes
            </th>
            <th scope="col" className="px-3 py-2">
              Outcome
            </th>
          </tr>
        </thead>
        <tbody>
          {draw.entries.map((e) => (
            <tr
              key={e.publicId}
              className={cn('border-t border-hairline', e.publicId === mine && 'bg-bone font-semibold')}
              aria-current={e.publicId === mine ? 'true' : undefined}
            >
              <td className="px-3 py-2 tabular-nums">{e.rank}</td>
              <td className="px-3 py-2 font-mono text-xs">
                {e.publicId}
                {e.publicId === mine && (
                  <span className="ml-2 font-sans text-xs font-bold uppercase">You</span>
                )}
              </td>
              <td className="px-3 py-2 tabular-nums">{e.weight}</td>
              <td className="px-3 py-2">{[e.size, e.secondSize].filter(Boolean).join(', then ') || '—'}</td>
              <td className="px-3 py-2">{outcomeLabel(e.outcome)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

type Check = { state: 'idle' } | { state: 'running' } | { state: 'done'; ok: boolean; text: string };

/** Recomputes the commitment and the ranking in the browser, with the same method the shop used (Web Crypto). */
async function checkInBrowser(draw: PublicDraw): Promise<{ ok: boolean; text: string }> {
  if (!draw.seed) return { ok: false, text: 'The seed is not revealed yet.' };
  if (!(await seedMatchesCommitment(draw.seed, draw.commitment))) {
    return { ok: false, text: 'The seed does not match the commitment.' };
  }
  const ranked = await rankEntries(
    draw.seed,
    draw.entries.map((e) => ({ publicId: e.publicId, weight: e.weight })),
  );
  const published = new Map(draw.entries.map((e) => [e.publicId, e.rank]));
  const wrong = ranked.filter((r) => published.get(r.publicId) !== r.rank).length;
  return wrong === 0
    ? {
        ok: true,
        text: `The seed matches the commitment, and all ${ranked.length} ranks match the published list.`,
      }
    : { ok: false, text: `${wrong} of ${ranked.length} ranks differ from the published list.` };
}

/** How anyone can check the draw: the independent verifier's command, or the same check in this browser. */
function HowToCheck({ draw }: { draw: PublicDraw }) {
  const [check, setCheck] = useState<Check>({ state: 'idle' });
  const run = async () => {
    setCheck({ state: 'running' });
    try {
      setCheck({ state: 'done', ...(await checkInBrowser(draw)) });
    } catch {
      setCheck({ state: 'done', ok: false, text: 'This browser could not run the check.' });
    }
  };
  return (
    <section aria-labelledby="check-heading" className="grid gap-4">
      <h2 id="check-heading" className="type-heading">
        How to check this draw
      </h2>
      <p className="max-w-2xl text-sm">
        Before entries opened the shop published a commitment to a secret seed; the seed, revealed when the
        draw runs, fixes every entry&apos;s place. Nobody, the shop included, could choose the order
        afterwards.
      </p>
      <ol className="grid max-w-2xl list-decimal gap-2 pl-5 text-sm">
        <li>
          Download the draw as JSON: the commitment, the seed and every entry&apos;s public id and weight.
        </li>
        <li>
          Run{' '}
          <code className="type-mono break-all bg-bone px-1 text-xs">
            node scripts/verify-draw.mjs &lt;draw.json&gt;
          </code>{' '}
          from the shop&apos;s source code. It checks the seed against the commitment, recomputes every rank
          and checks the winners.
        </li>
      </ol>
      <div className="flex flex-wrap items-center gap-3">
        <a
          href={`/api/draws/${draw.id}`}
          download={`draw-${draw.id}.json`}
          className={buttonVariants({ variant: 'outline' })}
        >
          Download the draw (JSON)
        </a>
        {draw.seed && (
          <Button
            type="button"
            variant="outline"
            onClick={() => void run()}
            disabled={check.state === 'running'}
          >
            Check it in this browser
          </Button>
        )}
      </div>
      <p
        aria-live="polite"
        className={cn(
          'text-sm font-semibold empty:hidden',
          check.state === 'done' && !check.ok && 'text-danger',
        )}
      >
        {check.state === 'running' ? 'Checking…' : check.state === 'done' ? check.text : ''}
      </p>
    </section>
  );
}

/**
 * The hex, folded: the commitment and the seed, every entry in rank order and the method by hand. A
 * native disclosure (<details>): opened and closed by keyboard like any button, and found by the
 * browser's find-in-page.
 */
function VerifyFold({
  draw,
  phase,
  entryId,
}: {
  draw: PublicDraw;
  phase: ReturnType<typeof drawPhase>;
  entryId: string | null;
}) {
  return (
    <details className="group border-y border-hairline" data-testid="draw-verify">
      <summary className="flex cursor-pointer list-none items-center justify-between gap-4 py-4 font-semibold [&::-webkit-details-marker]:hidden">
        <span>
          Verify
          <span className="ml-2 text-sm font-normal text-muted">
            the commitment, the seed and every entry
          </span>
        </span>
        <ChevronDown
          className="h-4 w-4 shrink-0 transition-transform group-open:rotate-180"
          aria-hidden="true"
        />
      </summary>
      <div className="grid gap-6 pb-6">
        <section aria-labelledby="proof-heading" className="grid gap-3">
          <h2 id="proof-heading" className="type-title">
            The proof
          </h2>
          <p className="max-w-2xl text-sm">
            Before the window opened we published the commitment: the SHA-256 of a secret seed. After the
            window closes we reveal the seed. The seed fixes every entry&apos;s place, so nobody, not the shop
            either, could choose the order once the commitment was out.
          </p>
          <Commitment value={draw.commitment} />
          {draw.seed ? (
            <div className="grid gap-1 text-sm">
              <p className="font-semibold">Seed (revealed at the draw)</p>
              <code className="block break-all bg-bone p-2 font-mono text-xs">{draw.seed}</code>
            </div>
          ) : (
            <p className="text-sm">The seed is revealed when the draw runs.</p>
          )}
        </section>
        {phase === 'result' && <Ranking draw={draw} entryId={entryId} />}
        <section aria-labelledby="method-heading" className="grid gap-2">
          <h2 id="method-heading" className="type-title">
            The method by hand
          </h2>
          <p className="max-w-2xl text-sm">
            <code className="font-mono text-xs">{draw.method}</code>, written up in docs/draw.md in the
            shop&apos;s source code: for each entry, take HMAC-SHA256 of its public id with the seed as the
            key; read the first 13 hex characters as a number n; u = (n + 0.5) / 2^52; key = −ln(u) / weight.
            The smallest key ranks first; equal keys go by public id.
          </p>
        </section>
      </div>
    </details>
  );
}
