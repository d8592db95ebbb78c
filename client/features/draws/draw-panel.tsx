import type { ReactNode } from 'react';
import { Link } from 'wouter';
import type { PublicDraw } from '../../../common/contracts/draws';
import { describeFairness } from '../../../common/domain/draw-fairness';
import { ReleaseTime } from '../../components/drop-countdown';
import { lazySection } from '../../lib/lazy-section';
import { useHydrated, useNow } from '../../lib/release-clock';
import { drawPhase } from './draw-view';

// The entry form (address, card, sizes, the human check) is most of a draw's code and only a draw product
// shows it: server-rendered with the page, its chunk fetched when it comes near (client/lib/lazy-section.tsx).
const DrawEntryForm = lazySection(() => import('./draw-entry-form').then((m) => m.DrawEntryForm));

const linkClass =
  'font-semibold underline underline-offset-4 hover:no-underline focus-visible:outline-3 focus-visible:outline-offset-2 focus-visible:outline-blue-600';

function Panel({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section
      aria-labelledby="draw-heading"
      className="grid gap-4 border border-hairline bg-surface p-4 sm:p-5"
      data-testid="draw-panel"
    >
      <div>
        <p className="type-eyebrow text-muted">Sold by draw</p>
        <h2 id="draw-heading" className="type-heading mt-1">
          {title}
        </h2>
      </div>
      {children}
    </section>
  );
}

/**
 * The server-rendered entry form stays disabled until React has taken it over: the page's own gate (the
 * root's disabled fieldset) opens with the page's frame, which may come before this part is hydrated, and
 * a size picked in between would be lost. A form mounted in the browser is usable at once.
 */
function UntilHydrated({ children }: { children: ReactNode }) {
  const hydrated = useHydrated();
  return (
    <fieldset role="none" disabled={!hydrated} className="contents">
      {children}
    </fieldset>
  );
}

/** The commitment, in full: the shop cannot change the draw's order once it is published. */
export function Commitment({ value }: { value: string }) {
  return (
    <div className="grid gap-1 text-sm">
      <p className="font-semibold">Commitment (SHA-256 of the secret seed)</p>
      <code className="block break-all bg-bone p-2 font-mono text-xs">{value}</code>
    </div>
  );
}

/** The draw's fair-over-time rule in plain words, when the owner chose one. */
function FairnessNote({ draw }: { draw: PublicDraw }) {
  const rule = describeFairness(draw.fairness);
  return rule ? <p className="text-sm">{rule}</p> : null;
}

/**
 * The product page's draw (a product sold by draw instead of first come, first served): before the window,
 * when it opens and the commitment; while open, the entry form; after, where the draw stands and its result.
 */
export function DrawPanel({
  draw,
  sizes,
}: {
  draw: PublicDraw;
  sizes: readonly string[];
}) {
  const phase = drawPhase(draw, useNow(draw.status === 'scheduled' || draw.status === 'open'));
  const drawLink = `/draws/${draw.id}`;
  switch (phase) {
    case 'upcoming':
      return (
        <Panel title="Entries open soon">
          <p className="text-sm">
            Entries open <ReleaseTime releaseAt={draw.opensAt} className="font-semibold" />. Enter any time in
            the window: the order of entry makes no difference.
          </p>
          <DrawTimes draw={draw} />
          <FairnessNote draw={draw} />
          <Commitment value={draw.commitment} />
          <p className="text-sm">
            <Link href={drawLink} className={linkClass}>
              How the draw works
            </Link>
          </p>
        </Panel>
      );
    case 'open':
      return (
        <Panel title="Enter the draw">
          <p className="text-sm">
            Enter any time before the window closes: the order of entry makes no difference. Winners are drawn
            at random, and anyone can check the draw.
          </p>
          <DrawTimes draw={draw} />
          <FairnessNote draw={draw} />
          <UntilHydrated>
            <DrawEntryForm draw={draw} sizes={sizes} />
          </UntilHydrated>
        </Panel>
      );
    case 'closed':
      return (
        <Panel title="Entries are closed">
          <p className="text-sm">
            The draw runs <ReleaseTime releaseAt={draw.drawAt} className="font-semibold" />. Every entrant
            gets their result by e-mail.
          </p>
          <p className="text-sm">
            <Link href={drawLink} className={linkClass}>
              Follow the draw
            </Link>
          </p>
        </Panel>
      );
    case 'result':
      return (
        <Panel title="The draw has run">
          <p className="text-sm">
            Every entrant gets their result by e-mail. The full list and the seed are public.
          </p>
          <p className="text-sm">
            <Link href={drawLink} className={linkClass}>
              See the draw's result
            </Link>
          </p>
        </Panel>
      );
    case 'cancelled':
      return null;
  }
}

/** Above the ordinary purchase controls once the draw is over: where its result is. */
export function DrawResultNote({ draw }: { draw: PublicDraw }) {
  return (
    <p className="border border-hairline p-3 text-sm" data-testid="draw-result-note">
      This piece was sold by draw.{' '}
      <Link href={`/draws/${draw.id}`} className={linkClass}>
        See the draw's result
      </Link>
    </p>
  );
}

/** Entries close / draw time line, shown above the form and on the panel's other states. */
export function DrawTimes({ draw }: { draw: Pick<PublicDraw, 'closesAt' | 'drawAt'> }) {
  return (
    <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
      <dt className="font-semibold">Entries close</dt>
      <dd>
        <ReleaseTime releaseAt={draw.closesAt} />
      </dd>
      <dt className="font-semibold">Draw</dt>
      <dd>
        <ReleaseTime releaseAt={draw.drawAt} />
      </dd>
    </dl>
  );
}
