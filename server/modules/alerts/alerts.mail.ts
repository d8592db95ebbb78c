import { escapeHtml } from '../../lib/html';
import type { MailMessage } from '../../lib/mailer';
import { shopTime } from '../../lib/shop-time';

interface AlertMailInput {
  to: string;
  productName: string;
  shopName: string;
  /** The product page (with ?claim=… for a reserved piece). */
  productUrl: string;
  /** One-click unsubscribe (RFC 8058): in the headers and at the foot of the mail. */
  unsubscribeUrl: string;
}

/** Every alert mail names only its own recipient and can be left with one click (List-Unsubscribe). */
function compose(input: AlertMailInput, subject: string, lines: string[], cta: string): MailMessage {
  const { to, shopName, productUrl, unsubscribeUrl } = input;
  const text = [
    ...lines,
    '',
    `${cta}: ${productUrl}`,
    '',
    `— ${shopName}`,
    '',
    `You asked us to tell you about this piece. Unsubscribe: ${unsubscribeUrl}`,
  ].join('\n');
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head>
<body style="font-family:Helvetica,Arial,sans-serif;color:#111;max-width:600px;margin:0 auto;padding:24px">
<h1 style="font-size:24px;text-transform:uppercase;letter-spacing:1px">${escapeHtml(shopName)}</h1>
${lines
  .filter(Boolean)
  .map((l) => `<p style="font-size:16px;line-height:1.5">${escapeHtml(l)}</p>`)
  .join('\n')}
<p><a href="${escapeHtml(productUrl)}" style="display:inline-block;background:#0a0a0a;color:#f5f5f0;padding:12px 20px;font-weight:bold;text-decoration:none">${escapeHtml(cta)}</a></p>
<p style="font-size:12px;color:#666">You asked us to tell you about this piece. <a href="${escapeHtml(unsubscribeUrl)}" style="color:#666">Unsubscribe</a></p>
</body></html>`;
  return {
    to,
    subject,
    text,
    html,
    headers: { 'List-Unsubscribe': `<${unsubscribeUrl}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
  };
}

/** The drop opened: mailed at the release time to everyone who asked. */
export function buildReleaseMail(input: AlertMailInput): MailMessage {
  return compose(
    input,
    `${input.productName} just dropped`,
    [
      `${input.productName} is on sale now.`,
      'Only 50 pieces will ever be made; once they are gone, the design is retired for good.',
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
  input: AlertMailInput & { releaseAt: Date; roomOpensAt: Date; timeZone?: string; calendarUrl: string; calendar: string },
): MailMessage {
  const release = shopTime(input.releaseAt, input.timeZone);
  const opened = shopTime(input.roomOpensAt, input.timeZone);
  const mail = compose(
    input,
    `${input.productName}: the waiting room is open — join before ${release.short}`,
    [
      `Join before ${release.short} to be in the draw.`,
      `The waiting room for ${input.productName} opened at ${opened.short}. Everyone who joins before the release (${release.long}) gets a random place in the draw; after that, the line is first come, first served.`,
      'Only 50 pieces will ever be made; once they are gone, the design is retired for good.',
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
