import { formatUsd } from '../../../common/domain/money';
import { escapeHtml } from '../../lib/html';
import type { MailMessage } from '../../lib/mailer';
import { shopTime } from '../../lib/shop-time';

// The draw's mails: the confirmation link after entering, and one result per entrant after the draw.
// Nothing in them but what the entrant typed and the shop's own words.

function layout(
  shopName: string,
  subject: string,
  lines: readonly string[],
  link?: { url: string; label: string },
): { text: string; html: string } {
  const text = [...lines, ...(link ? ['', `${link.label}: ${link.url}`] : []), '', `— ${shopName}`].join(
    '\n',
  );
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head>
<body style="font-family:Helvetica,Arial,sans-serif;color:#111;max-width:600px;margin:0 auto;padding:24px">
<h1 style="font-size:24px;text-transform:uppercase;letter-spacing:1px">${escapeHtml(shopName)}</h1>
${lines.map((l) => `<p style="font-size:16px;line-height:1.5">${escapeHtml(l)}</p>`).join('\n')}
${link ? `<p><a href="${escapeHtml(link.url)}" style="display:inline-block;background:#0a0a0a;color:#f5f5f0;padding:12px 20px;font-weight:bold;text-decoration:none">${escapeHtml(link.label)}</a></p>` : ''}
</body></html>`;
  return { text, html };
}

export function renderEntryConfirmation(input: {
  to: string;
  firstName: string;
  productName: string;
  amountCents: number;
  closesAt: Date;
  url: string;
  shopName: string;
  /** The shop's time zone for the closing time (SHOP_TIME_ZONE); default UTC. */
  timeZone?: string;
}): MailMessage {
  const subject = `Confirm your entry: ${input.productName}`;
  const lines = [
    `Hi ${input.firstName},`,
    `You entered the draw for ${input.productName}. Confirm your entry with the link below: an entry that is not confirmed before the window closes (${shopTime(input.closesAt, input.timeZone).long}) is not in the draw.`,
    `When you confirm, we authorise ${formatUsd(input.amountCents)} on your card. Nothing is charged unless you win; otherwise the authorisation is released after the draw.`,
    'The same link lets you see your entry, change your sizes or withdraw until the window closes.',
  ];
  return {
    to: input.to,
    subject,
    ...layout(input.shopName, subject, lines, { url: input.url, label: 'Confirm my entry' }),
  };
}

/** An entry's result: its status, except that `sat_out` is an entry removed under the sit_out rule. */
export type DrawResultKind = 'won' | 'lost' | 'capture_failed' | 'removed' | 'sat_out' | 'lapsed';

export function renderDrawResult(input: {
  to: string;
  firstName: string;
  productName: string;
  kind: DrawResultKind;
  size: string | null;
  amountCents: number;
  orderNumber: string | null;
  url: string;
  /** The shop's /drops: where a shopper who was not drawn sees what comes next. */
  nextDropsUrl: string;
  shopName: string;
}): MailMessage {
  const subjects: Record<DrawResultKind, string> = {
    won: `You won the draw: ${input.productName}`,
    lost: `The draw for ${input.productName}: not this time`,
    capture_failed: `The draw for ${input.productName}: your card was declined`,
    removed: `The draw for ${input.productName}: your entry was merged`,
    sat_out: `The draw for ${input.productName}: recent winners sit this one out`,
    lapsed: `The draw for ${input.productName}: your entry was not confirmed`,
  };
  const released = `Your card was never charged: the authorisation on it has been released. The next drops: ${input.nextDropsUrl}`;
  const body: Record<DrawResultKind, string[]> = {
    won: [
      `You won ${input.productName}${input.size ? ` in ${input.size}` : ''}.`,
      `We charged ${formatUsd(input.amountCents)} to your card.${input.orderNumber ? ` Your order number is ${input.orderNumber}.` : ''}`,
      'We will e-mail you again when it ships.',
    ],
    lost: [`Your entry was not drawn for ${input.productName} this time.`, released],
    capture_failed: [
      `Your entry was drawn for ${input.productName}, but your card was declined when we tried to charge it, so the piece went to the next entrant.`,
      released,
    ],
    removed: [
      `We found more than one entry from you for ${input.productName} (the same e-mail, address or card). Only the earliest confirmed one took part; this one did not.`,
      released,
    ],
    sat_out: [
      `You won one of the recent draws here, and this draw lets recent winners sit out to give others a chance, so your entry for ${input.productName} did not take part.`,
      released,
    ],
    lapsed: [
      `Your entry for ${input.productName} was not confirmed before the window closed, so it did not take part.`,
      released,
    ],
  };
  const subject = subjects[input.kind];
  const lines = [`Hi ${input.firstName},`, ...body[input.kind]];
  return {
    to: input.to,
    subject,
    ...layout(input.shopName, subject, lines, { url: input.url, label: 'See the draw' }),
  };
}
