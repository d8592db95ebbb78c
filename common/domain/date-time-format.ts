// The one way the shop writes a date or a time, on every page and in every mail: drop times, countdown
// captions, pass and hold ends, order dates, ship-by dates. One set of Intl options per kind, so a locale
// gets one consistent style; the shop's locale is en-US ('Fri, Dec 11, 2026, 6:00 PM EST'), like its
// prices and addresses. Without a time zone the runtime's own is used (a shopper's browser, after
// hydration); the server passes the shop's (SHOP_TIME_ZONE) or 'UTC' and names it.

export const SHOP_LOCALE = 'en-US';

export interface ShopTimeOptions {
  /** An IANA zone ('America/New_York', 'UTC'); absent: the runtime's own. */
  timeZone?: string;
  /** Append the zone's short name ('6:00 PM EST'): whenever the reader may be on another clock. */
  zoneName?: boolean;
  locale?: string;
}

type Instant = Date | string | number;

const formatters = new Map<string, Intl.DateTimeFormat>();

/**
 * One `Intl.DateTimeFormat` per locale and options, kept: building one loads locale data and costs far
 * more than formatting with it, and the order confirmation formats several dates on the purchase path.
 * The keys are the code's few option sets times the zones in use; the cap only guards against a caller
 * that varies them without end.
 */
export function dateTimeFormat(locale: string | undefined, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `${locale ?? ''}|${JSON.stringify(options)}`;
  let formatter = formatters.get(key);
  if (!formatter) {
    if (formatters.size >= 256) formatters.clear();
    formatter = new Intl.DateTimeFormat(locale, options);
    formatters.set(key, formatter);
  }
  return formatter;
}

const DATE = { weekday: 'short', month: 'short', day: 'numeric', year: 'numeric' } as const;
const TIME = { hour: 'numeric', minute: '2-digit' } as const;

/**
 * Some ICU versions put a narrow or no-break space before 'PM' and others a plain one: always a plain one, so
 * the server's HTML and the hydrated page agree, and a reader's search for '6:00 PM' finds it.
 */
const plainSpaces = (s: string) => s.replace(/[\u202f\u00a0]/g, ' ');

/**
 * The zone's short name. en-US knows American abbreviations only ('EST', but 'GMT+1' for Berlin); where
 * it falls back to an offset, the British data's name is used when it has one ('CET', 'CEST', 'BST').
 */
function zoneName(at: Date, timeZone: string | undefined, locale: string): string {
  const name = (loc: string) =>
    dateTimeFormat(loc, { timeZone, timeZoneName: 'short' }).formatToParts(at).find((p) => p.type === 'timeZoneName')?.value ?? '';
  const own = name(locale);
  if (locale !== SHOP_LOCALE || !/^GMT[+-]/.test(own)) return own;
  const british = name('en-GB');
  return /^GMT[+-]/.test(british) ? own : british;
}

function format(at: Instant, fields: Intl.DateTimeFormatOptions, opts: ShopTimeOptions): string {
  const locale = opts.locale ?? SHOP_LOCALE;
  const date = new Date(at);
  const text = plainSpaces(dateTimeFormat(locale, { ...fields, timeZone: opts.timeZone }).format(date));
  return opts.zoneName ? `${text} ${zoneName(date, opts.timeZone, locale)}` : text;
}

/** 'Fri, Dec 11, 2026, 6:00 PM' ('… 6:00 PM EST' with `zoneName`). */
export function formatShopDateTime(at: Instant, opts: ShopTimeOptions = {}): string {
  return format(at, { ...DATE, ...TIME }, opts);
}

/** '6:00 PM' ('6:00 PM EST' with `zoneName`). */
export function formatShopTime(at: Instant, opts: ShopTimeOptions = {}): string {
  return format(at, TIME, opts);
}

/** 'Fri, Dec 11, 2026': the day of an instant in `timeZone`. */
export function formatShopDay(at: Instant, opts: Omit<ShopTimeOptions, 'zoneName'> = {}): string {
  return format(at, DATE, opts);
}

/** '2026-12-09' → 'Wed, Dec 9, 2026': a calendar date as written (no time zone in play). */
export function formatCalendarDate(date: string, opts: Pick<ShopTimeOptions, 'locale'> = {}): string {
  return format(Date.parse(`${date.slice(0, 10)}T00:00:00Z`), DATE, { ...opts, timeZone: 'UTC' });
}

/** 'Friday 6:00 PM': when a drop this week happens, in a headline. */
export function formatShopWeekdayTime(at: Instant, opts: ShopTimeOptions = {}): string {
  // Intl joins a weekday and a time with ' at ' or ', ' depending on the runtime's CLDR: one space, always.
  return `${format(at, { weekday: 'long' }, { ...opts, zoneName: false })} ${formatShopTime(at, opts)}`;
}
