// Times the shop writes into its mails ("kept until 6:05 PM EST"), in the shop's own time zone
// (SHOP_TIME_ZONE, an IANA name; default UTC): a shopper in the brand's city reads the hour on their
// clock, and the zone's short name says which clock it is. The format is the shop's one
// (common/domain/date-time-format.ts), as on its pages.
import { formatShopDateTime, formatShopTime } from '../../common/domain/date-time-format';

/** '6:00 PM EST' and 'Fri, Nov 27, 2026, 6:00 PM EST' in `timeZone`. */
export function shopTime(at: Date, timeZone = 'UTC'): { short: string; long: string } {
  return {
    short: formatShopTime(at, { timeZone, zoneName: true }),
    long: formatShopDateTime(at, { timeZone, zoneName: true }),
  };
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
