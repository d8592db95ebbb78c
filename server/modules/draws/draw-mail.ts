import { formatUsd } from '../../../common/domain/money';
import type { MailMessage } from '../../lib/mailer';
import { mailBrand, renderMailHtml, textFooter, type MailItem, type ShopOrBrand } from '../../lib/mail-template';
import { shopTime } from '../../lib/shop-time';

// The draw's mails: the confirmation link after entering, and one result per entrant after the draw.
// Nothing in them but what the entrant typed and the shop's own words.

/** The piece the draw is for, shown under the mail's words (its image when the flow knows it). */
const drawnPiece = (productName: string, imageUrl: string | null | undefined, size?: string | null): MailItem[] => [
  { name: productName, detail: size ? `Size: ${size}` : undefined, imageUrl: imageUrl ?? null },
];

function layout(
  shop: ShopOrBrand,
  subject: string,
  heading: string,
  lines: readonly string[],
  link: { url: string; label: string },
  items: MailItem[],
): { text: string; html: string } {
  const brand = mailBrand(shop);
  const text = [...lines, '', `${link.label}: ${link.url}`, '', `— ${brand.shopName}`, ...textFooter(brand)].join('\n');
  const html = renderMailHtml(brand, { subject, heading, lead: [...lines], cta: link, items, piecesFirst: true });
  return { text, html };
}

export function renderEntryConfirmation(input: {
  to: string;
  firstName: string;
  productName: string;
  amountCents: number;
  closesAt: Date;
  url: string;
  /** The shop's name, or its whole mail brand (server/lib/mail-template.ts). */
  shopName: ShopOrBrand;
  /** The piece's image (absolute URL), shown in the mail. */
  productImageUrl?: string | null;
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
    ...layout(input.shopName, subject, 'Confirm your entry', lines, { url: input.url, label: 'Confirm my entry' }, drawnPiece(input.productName, input.productImageUrl)),
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
  /** The shop's name, or its whole mail brand (server/lib/mail-template.ts). */
  shopName: ShopOrBrand;
  /** The piece's image (absolute URL), shown in the mail. */
  productImageUrl?: string | null;
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
    ...layout(input.shopName, subject, input.kind === 'won' ? 'You won the draw' : 'The draw is done', lines, { url: input.url, label: 'See the draw' }, drawnPiece(input.productName, input.productImageUrl, input.kind === 'won' ? input.size : null)),
  };
}
