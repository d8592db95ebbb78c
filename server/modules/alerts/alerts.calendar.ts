import ical, { ICalAlarmType } from 'ical-generator';
import { shopTime } from '../../lib/shop-time';

export interface DropCalendarInput {
  productId: string;
  productName: string;
  shopName: string;
  /** When the waiting room opens (release − DROP_RAFFLE_MINUTES): the event starts then. */
  roomOpensAt: Date;
  /** The release: joining before it puts the shopper in the draw; the event ends then. */
  releaseAt: Date;
  /** The product page, where the waiting room is. */
  url: string;
  /** The shop's host name: the event's UID is stable per product and shop, so a second download updates it. */
  host: string;
  /** The shop's time zone for the hour the description names (the event's times are UTC, shown in the reader's zone). */
  timeZone?: string;
}

/**
 * One VEVENT (RFC 5545) from the room's opening to the release, with a display alarm 10 minutes before
 * it opens: what "Add to calendar" downloads and the room-opening mail carries (ADR 011, "Alerts people
 * can act on"). Written by ical-generator (escaping, line folding, UTC date-times).
 */
export function buildDropCalendar(input: DropCalendarInput): string {
  const cal = ical({ prodId: { company: input.shopName, product: 'Drops', language: 'EN' }, name: `${input.shopName} drops` });
  cal.createEvent({
    id: `drop-${input.productId}@${input.host}`,
    stamp: new Date(),
    start: input.roomOpensAt,
    end: input.releaseAt,
    summary: `${input.productName} drops: the waiting room opens`,
    description: `Join the waiting room before ${shopTime(input.releaseAt, input.timeZone).short} to be in the draw for ${input.productName}: ${input.url}`,
    url: input.url,
    alarms: [{ type: ICalAlarmType.display, trigger: 10 * 60, description: `${input.productName}: the waiting room opens in 10 minutes` }],
  });
  return cal.toString();
}
