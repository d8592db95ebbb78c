import { mailBrand, renderMailHtml, textFooter, type MailBlock, type ShopOrBrand } from '../../lib/mail-template';
import type { MailMessage } from '../../lib/mailer';
import { shopTime } from '../../lib/shop-time';
import { editionRetiredText } from '../../../common/domain/edition-copy';

interface AlertMailInput {
  to: string;
  productName: string;
  /** The shop's name, or its whole mail brand (server/lib/mail-template.ts). */
  shopName: ShopOrBrand;
  /** The piece's image (absolute URL), shown in the mail. */
  productImageUrl?: string | null;
  /** The product page (with ?claim=… for a reserved piece). */
  productUrl: string;
  /** One-click unsubscribe (RFC 8058): in the headers and at the foot of the mail. */
  unsubscribeUrl: string;
}

/** Every alert mail names only its own recipient and can be left with one click (List-Unsubscribe). */
function compose(input: AlertMailInput, subject: string, lines: string[], cta: string): MailMessage {
  const { to, productUrl, unsubscribeUrl } = input;
  const brand = mailBrand(input.shopName);
  const why = 'You asked us to tell you about this piece.';
  const text = [
    ...lines,
    '',
    `${cta}: ${productUrl}`,
    '',
    `— ${brand.shopName}`,
    '',
    `${why} Unsubscribe: ${unsubscribeUrl}`,
    ...textFooter(brand),
  ].join('\n');
  const html = renderMailHtml(brand, {
    subject,
    heading: lines[0],
    // "Add it to your calendar: <url>" reads as a link in HTML.
    lead: lines
      .slice(1)
      .filter(Boolean)
      .map((l): MailBlock => {
        const m = /^(.+): (https?:\/\/\S+)$/.exec(l);
        return m ? { text: [{ link: { url: m[2]!, label: m[1]! } }] } : l;
      }),
    cta: { url: productUrl, label: cta },
    items: [{ name: input.productName, imageUrl: input.productImageUrl ?? null }],
    piecesFirst: true,
    footnote: [{ text: [`${why} `, { link: { url: unsubscribeUrl, label: 'Unsubscribe' } }], tone: 'small' }],
  });
  return {
    to,
    subject,
    text,
    html,
    headers: { 'List-Unsubscribe': `<${unsubscribeUrl}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
  };
}

/** The drop opened: mailed at the release time to everyone who asked. */
export function buildReleaseMail(input: AlertMailInput & { editionSize: number }): MailMessage {
  return compose(
    input,
    `${input.productName} just dropped`,
    [
      `${input.productName} is on sale now.`,
      editionRetiredText(input.editionSize),
    ],
    'Shop the drop',
  );
}

/**
 * The waiting room opened (DROP_RAFFLE_MINUTES before the release): everyone who joins before the release is
 * in the draw, so this is the mail that lets a subscriber act in time. It links straight to the room and
 * carries the drop's calendar event (.ics) with a link to download it again.
 */
export function buildRoomOpenMail(
  input: AlertMailInput & { editionSize: number; releaseAt: Date; roomOpensAt: Date; timeZone?: string; calendarUrl: string; calendar: string },
): MailMessage {
  const release = shopTime(input.releaseAt, input.timeZone);
  const opened = shopTime(input.roomOpensAt, input.timeZone);
  const mail = compose(
    input,
    `${input.productName}: the waiting room is open — join before ${release.short}`,
    [
      `Join before ${release.short} to be in the draw.`,
      `The waiting room for ${input.productName} opened at ${opened.short}. Everyone who joins before the release (${release.long}) gets a random place in the draw; after that, the line is first come, first served.`,
      editionRetiredText(input.editionSize),
      `Add it to your calendar: ${input.calendarUrl}`,
    ],
    'Join the waiting room',
  );
  return {
    ...mail,
    attachments: [{ filename: 'drop.ics', content: input.calendar, contentType: 'text/calendar; charset=utf-8; method=PUBLISH' }],
  };
}

/**
 * A piece came back and is kept for this subscriber until `reservedUntil` (their link claims it). `size`:
 * the size of the kept piece (ADR 015), named in the subject and the text; null for an edition in one pool.
 */
export function buildRestockMail(
  input: AlertMailInput & { reservedUntil: Date; minutes: number; size?: string | null; timeZone?: string },
): MailMessage {
  const until = shopTime(input.reservedUntil, input.timeZone).short;
  const piece = input.size ? `${input.productName} in size ${input.size}` : input.productName;
  return compose(
    input,
    `A piece of ${piece} is back — kept for you for ${input.minutes} minutes`,
    [
      `A piece of ${piece} came back, and you were first on the waiting list.`,
      `It is kept for you until ${until} (${input.minutes} minutes): only the link below can add it to a cart until then.`,
      "After that it goes to the next person on the list.",
    ],
    'Claim your piece',
  );
}
