import { Link } from 'wouter';
import { dropsAtText, listDrops } from '../../../common/domain/drop-schedule';
import { dropTiming, useDrops } from '../../lib/use-drops';
import { useNow } from '../../lib/release-clock';

/**
 * Where a shopper who missed a drop goes next: the live or soonest upcoming drop other than this one,
 * else the /drops page. Shown under a sold-out drop so missing out is never a dead end.
 */
export function NextDrop({ excludeId }: { excludeId: string }) {
  const drops = useDrops();
  // No ticking: the sold-out state does not need a live clock, only which drops are next.
  const now = useNow(false);
  const { live, upcoming } = listDrops(drops.data ?? [], now, dropTiming());
  const next = [...live, ...upcoming].find((p) => p.id !== excludeId);
  if (!next)
    return (
      <Link href="/drops" className="text-sm underline underline-offset-4">
        See every drop
      </Link>
    );
  const when = live.includes(next) ? 'Live now' : dropsAtText(next.releaseAt!);
  return (
    <p className="text-sm">
      Next drop:{' '}
      <Link href={`/product/${next.id}`} className="font-semibold underline underline-offset-4">
        {next.name}
      </Link>{' '}
      <span className="text-muted">· {when}</span>
    </p>
  );
}
