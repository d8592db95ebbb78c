// Times the shop writes into its mails ("kept until 18:05 CET"), in the shop's own time zone
// (SHOP_TIME_ZONE, an IANA name; default UTC): a shopper in the brand's city reads the hour on their
// clock, and the zone's short name says which clock it is.

/** '18:00 CET' and 'Fri, 27 Nov 2026, 18:00 CET' in `timeZone`. */
export function shopTime(at: Date, timeZone = 'UTC'): { short: string; long: string } {
  const parts = (opts: Intl.DateTimeFormatOptions) =>
    new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZoneName: 'short', timeZone, ...opts }).format(at);
  return { short: parts({}), long: parts({ weekday: 'short', day: 'numeric', month: 'short', year: 'numeric' }) };
}

/** Whether Intl knows `name` as a time zone ('Europe/Berlin', 'America/New_York', 'UTC'). */
export function isTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat('en-GB', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}
