// The product form's 'Release time': a datetime-local control shows and takes the owner's local
// time (the browser's zone); the form value and the server keep the UTC instant (ISO 8601).
import { formatReleaseTime } from '../../../common/domain/release';

const two = (n: number) => String(n).padStart(2, '0');

/** ISO instant → 'YYYY-MM-DDTHH:mm' in the local zone ('' for none). */
export function isoToLocalInput(iso: string | null | undefined): string {
  if (!iso) return '';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())}T${two(d.getHours())}:${two(d.getMinutes())}`;
}

/** 'YYYY-MM-DDTHH:mm' read in the local zone → ISO instant in UTC ('' for none or an unfinished value). */
export function localInputToIso(local: string): string {
  if (!local) return '';
  const d = new Date(local);
  return Number.isNaN(d.getTime()) ? '' : d.toISOString();
}

/** The owner's zone for the field's hint, e.g. 'Europe/Paris'. */
export function localTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'your local time';
}

/** The admin list's release line in the owner's zone: 'Drops Fri, Nov 27, 2099, 7:00 PM' ('Dropped …' once past). */
export function formatDropLine(iso: string, now: number = Date.now()): string {
  return `${Date.parse(iso) > now ? 'Drops' : 'Dropped'} ${formatReleaseTime(iso)}`;
}
