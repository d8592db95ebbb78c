import { escapeHtml } from './html';
import type { MailMessage } from './mailer';
import { MAIL_LAYOUT_HTML } from './mail-layout.generated';

/**
 * The one template of every mail the shop sends (ADR 024): the shop's mark and name, one heading, the mail's
 * paragraphs, its one button, the pieces with their images and edition numbers, and a footer with support
 * and returns. The layout is MJML compiled at build time (mail-layout.mjml → mail-layout.generated.ts), so a
 * mail costs one pass of string filling; every value that goes in is escaped here. Modules render their own
 * mails with it (a module imports no other module; server/lib is shared).
 */

/** Who the mail is from; the same for every mail of a shop (settings: SHOP_NAME, PUBLIC_URL, SUPPORT_EMAIL). */
export interface MailBrand {
  shopName: string;
  /** The shop's own address: the mark, the shop link and the refund policy's link are built from it. */
  shopUrl?: string;
  /**
   * Named in the footer. Order mails leave it out: the orders module adds its own line (withSupport), so the
   * address appears once.
   */
  supportEmail?: string;
}

/** What renderers accept for the shop: its name alone (older callers, tests) or the whole brand. */
export type ShopOrBrand = string | MailBrand;

export const mailBrand = (shop: ShopOrBrand): MailBrand =>
  typeof shop === 'string' ? { shopName: shop } : shop;

/** The refund policy page (client/pages): the footer's returns line links to it. */
export const REFUND_POLICY_PATH = '/refund-policy';
/** The favicon's mark as PNG (scripts/build-mail-template.mjs renders it; mail clients do not show SVG). */
export const MAIL_MARK_PATH = '/mail-mark.png';

const INK = '#0a0a0a';
const MUTED = '#5c5c57';
const HAIRLINE = '#d9d7cf';
const BONE = '#ebe9e2';
const WARN = '#7a5200';
const WARN_SOFT = '#f7f0dc';
const MONO = "ui-monospace,SFMono-Regular,Menlo,Consolas,'Liberation Mono',monospace";

/** Text inside a paragraph: plain, bold, a link, or a number in the mono face (order and edition numbers). */
export type MailInline =
  string | { strong: string } | { mono: string } | { link: { url: string; label: string } };

export type MailBlock =
  /** A paragraph of plain text. */
  | string
  /** A paragraph of mixed text; `muted` and `small` are quieter, `strong` bold. */
  | { text: string | MailInline[]; tone?: 'muted' | 'strong' | 'small' }
  /** A boxed warning (a test order). */
  | { note: string }
  /** Lines under a label, e.g. a postal address. */
  | { lines: string[]; label?: string }
  /** A code to type (a discount code), large and spaced. */
  | { code: string };

/** One piece in the mail: its image (absolute URL), edition numbers ("No. 17 of 50"), quantity and price. */
export interface MailItem {
  name: string;
  /** "Size: M · Color: Black". */
  detail?: string;
  edition?: string;
  quantity?: number;
  price?: string;
  imageUrl?: string | null;
}

export interface MailContent {
  subject: string;
  /** The line clients show beside the subject in the inbox. */
  preview?: string;
  /** The mail's one loud line. */
  heading?: string;
  lead: MailBlock[];
  /** The one button (e.g. "View your order"). */
  cta?: { url: string; label: string };
  after?: MailBlock[];
  items?: MailItem[];
  /** The pieces go above the button (a mail about one piece: the piece, then what to do), not below it. */
  piecesFirst?: boolean;
  /** Rows under the items ("Subtotal", "$90.00"); the last is the total, in bold. */
  totals?: Array<[string, string]>;
  outro?: MailBlock[];
  /** Why this mail came and how to stop it; small, at the foot. */
  footnote?: MailBlock[];
}

/** Where the support line goes in a mail rendered without one (order mails: withSupport fills it). */
export const SUPPORT_SLOT = '<!--mail-support-->';

const trimSlash = (url: string) => url.replace(/\/+$/, '');

/** An image or link path made absolute against the shop's address (mail is read away from the shop). */
export function absoluteUrl(
  shopUrl: string | undefined,
  pathOrUrl: string | null | undefined,
): string | null {
  if (!pathOrUrl) return null;
  if (/^https?:\/\//i.test(pathOrUrl)) return pathOrUrl;
  if (!shopUrl || !pathOrUrl.startsWith('/')) return null;
  return `${trimSlash(shopUrl)}${pathOrUrl}`;
}

const link = (url: string, label: string, style = `color:${INK}`) =>
  `<a href="${escapeHtml(url)}" style="${style}">${escapeHtml(label)}</a>`;

function inline(part: MailInline): string {
  if (typeof part === 'string') return escapeHtml(part);
  if ('strong' in part) return `<strong>${escapeHtml(part.strong)}</strong>`;
  if ('mono' in part)
    return `<span style="font-family:${MONO};font-weight:600">${escapeHtml(part.mono)}</span>`;
  return link(part.link.url, part.link.label);
}

const P = 'margin:0 0 16px';

function block(b: MailBlock): string {
  if (typeof b === 'string') return `<p style="${P}">${escapeHtml(b)}</p>`;
  if ('note' in b)
    return `<p style="${P};padding:12px 16px;background:${WARN_SOFT};color:${WARN};border-left:2px solid ${WARN};font-weight:600">${escapeHtml(b.note)}</p>`;
  if ('lines' in b)
    return `<p style="${P}">${b.label ? `<strong>${escapeHtml(b.label)}</strong><br>` : ''}${b.lines.map(escapeHtml).join('<br>')}</p>`;
  if ('code' in b)
    return `<p style="${P};text-align:center"><span style="display:inline-block;padding:14px 24px;background:${BONE};border:1px solid ${HAIRLINE};font-family:${MONO};font-size:24px;font-weight:700;letter-spacing:3px">${escapeHtml(b.code)}</span></p>`;
  const text = typeof b.text === 'string' ? escapeHtml(b.text) : b.text.map(inline).join('');
  const tone =
    b.tone === 'muted'
      ? `;color:${MUTED}`
      : b.tone === 'small'
        ? `;color:${MUTED};font-size:13px;line-height:20px`
        : b.tone === 'strong'
          ? ';font-weight:700'
          : '';
  return `<p style="${P}${tone}">${text}</p>`;
}

const blocks = (list: MailBlock[] | undefined) => (list ?? []).map(block).join('\n');

const CELL = `border-top:1px solid ${HAIRLINE};vertical-align:top`;

function itemRow(item: MailItem): string {
  const image = item.imageUrl
    ? `<img src="${escapeHtml(item.imageUrl)}" width="64" height="80" alt="" style="display:block;width:64px;height:80px;object-fit:cover;border:0;background:${BONE}">`
    : `<div style="width:64px;height:80px;background:${BONE}"></div>`;
  const lines = [
    `<strong>${escapeHtml(item.name)}</strong>`,
    ...(item.detail ? [`<span style="color:${MUTED};font-size:14px">${escapeHtml(item.detail)}</span>`] : []),
    ...(item.edition
      ? [
          `<span style="font-family:${MONO};font-size:13px;font-weight:600">${escapeHtml(item.edition)}</span>`,
        ]
      : []),
  ];
  const right = [
    ...(item.price ? [`<span style="white-space:nowrap">${escapeHtml(item.price)}</span>`] : []),
    ...(item.quantity !== undefined
      ? [`<span style="color:${MUTED};font-size:14px;white-space:nowrap">Qty ${item.quantity}</span>`]
      : []),
  ];
  return `<tr>
<td width="80" style="${CELL};width:80px;padding:12px 16px 12px 0">${image}</td>
<td style="${CELL};padding:12px 0">${lines.join('<br>')}</td>
<td align="right" style="${CELL};padding:12px 0 12px 12px;text-align:right">${right.join('<br>')}</td>
</tr>`;
}

function totalsRows(rows: Array<[string, string]>): string {
  return rows
    .map(([k, v], i) => {
      const last = i === rows.length - 1;
      const style = `padding:${i === 0 ? '12px' : '4px'} 0 4px;${i === 0 ? `border-top:1px solid ${HAIRLINE};` : ''}${last ? 'font-weight:700;' : ''}`;
      return `<tr><td colspan="2" style="${style}">${escapeHtml(k)}</td><td align="right" style="${style}text-align:right;white-space:nowrap">${escapeHtml(v)}</td></tr>`;
    })
    .join('\n');
}

/** The footer's support sentence, as HTML (order mails word it "Questions about your order?"). */
export function supportHtml(supportEmail: string, question = 'Questions?'): string {
  return `<p style="margin:0 0 8px">${escapeHtml(question)} Write to <a href="mailto:${escapeHtml(supportEmail)}">${escapeHtml(supportEmail)}</a>; we reply within 24 hours.</p>`;
}

/** The support sentence of the text part. */
export const supportText = (supportEmail: string, question = 'Questions?') =>
  `${question} Write to ${supportEmail}; we reply within 24 hours.`;

/** Puts a support paragraph in the footer's slot (or, for a mail without one, before the end of the body). */
export function fillSupportSlot(html: string, paragraph: string): string {
  const at = html.indexOf(SUPPORT_SLOT);
  if (at >= 0) return `${html.slice(0, at)}${paragraph}${html.slice(at + SUPPORT_SLOT.length)}`;
  const end = html.lastIndexOf('</body>');
  return end < 0 ? `${html}${paragraph}` : `${html.slice(0, end)}${paragraph}\n${html.slice(end)}`;
}

function footer(brand: MailBrand, content: MailContent): string {
  const base = brand.shopUrl ? trimSlash(brand.shopUrl) : null;
  const muted = `color:${MUTED}`;
  return [
    brand.supportEmail ? supportHtml(brand.supportEmail) : SUPPORT_SLOT,
    ...(base
      ? [
          `<p style="margin:0 0 8px">Returns and refunds: ${link(`${base}${REFUND_POLICY_PATH}`, 'refund policy', muted)} · ${link(`${base}/`, brand.shopName, muted)}</p>`,
        ]
      : []),
    ...(content.footnote ?? []).map((b) => block(typeof b === 'string' ? { text: b, tone: 'small' } : b)),
  ].join('\n');
}

/** Drops the part between `<!--name-->` and `<!--/name-->` (inclusive) unless `keep`. */
function section(html: string, name: string, keep: boolean): string {
  const open = `<!--${name}-->`;
  const close = `<!--/${name}-->`;
  const start = html.indexOf(open);
  const end = html.indexOf(close);
  if (start < 0 || end < 0) return html;
  return keep
    ? `${html.slice(0, start)}${html.slice(start + open.length, end)}${html.slice(end + close.length)}`
    : `${html.slice(0, start)}${html.slice(end + close.length)}`;
}

/**
 * The layout with its optional parts kept or dropped (at most 2^5 shapes, each cut once), split at its slots:
 * even entries are the layout's own HTML, odd ones slot names, so a mail is one join.
 */
const shapes = new Map<string, string[]>();
function shape(parts: {
  mark: boolean;
  heading: boolean;
  cta: boolean;
  top: boolean;
  items: boolean;
}): string[] {
  const key = Object.values(parts).map(Number).join('');
  let split = shapes.get(key);
  if (split === undefined) {
    split = Object.entries(parts)
      .reduce((out, [name, keep]) => section(out, name, keep), MAIL_LAYOUT_HTML)
      .split(/%%([A-Z_]+)%%/);
    shapes.set(key, split);
  }
  return split;
}

/** The mail's HTML: the layout's slots filled (one pass, so nothing filled in is read as a slot). */
export function renderMailHtml(shop: ShopOrBrand, content: MailContent): string {
  const brand = mailBrand(shop);
  const markSrc = absoluteUrl(brand.shopUrl, MAIL_MARK_PATH);
  const items = content.items ?? [];
  const pieces = [...items.map(itemRow), ...(content.totals ? [totalsRows(content.totals)] : [])].join('\n');
  const hasPieces = items.length > 0 || !!content.totals?.length;
  const slots: Record<string, string> = {
    TITLE: escapeHtml(content.subject),
    PREVIEW: escapeHtml(content.preview ?? ''),
    SHOP_NAME: escapeHtml(brand.shopName),
    SHOP_URL: escapeHtml(brand.shopUrl ? `${trimSlash(brand.shopUrl)}/` : ''),
    MARK_SRC: escapeHtml(markSrc ?? ''),
    HEADING: escapeHtml(content.heading ?? ''),
    LEAD: blocks(content.lead),
    CTA_URL: escapeHtml(content.cta?.url ?? ''),
    CTA_LABEL: escapeHtml(content.cta?.label ?? ''),
    AFTER: blocks(content.after),
    ITEMS: content.piecesFirst ? '' : pieces,
    TOP_ITEMS: content.piecesFirst ? pieces : '',
    OUTRO: blocks(content.outro),
    FOOTER: footer(brand, content),
  };
  const parts = {
    mark: !!markSrc,
    heading: !!content.heading,
    cta: !!content.cta,
    top: hasPieces && !!content.piecesFirst,
    items: hasPieces && !content.piecesFirst,
  };
  const split = shape(parts);
  let html = '';
  for (let i = 0; i < split.length; i++)
    html += i % 2 === 0 ? split[i] : (slots[split[i]!] ?? `%%${split[i]}%%`);
  return html;
}

/**
 * The text part's foot: the support line (when the brand names it) and the returns and shop links (when the
 * shop's address is known), after the mail's own signature.
 */
export function textFooter(shop: ShopOrBrand): string[] {
  const brand = mailBrand(shop);
  const base = brand.shopUrl ? trimSlash(brand.shopUrl) : null;
  const lines = [
    ...(brand.supportEmail ? [supportText(brand.supportEmail)] : []),
    ...(base ? [`Returns and refunds: ${base}${REFUND_POLICY_PATH}`, `${brand.shopName}: ${base}/`] : []),
  ];
  return lines.length > 0 ? ['', ...lines] : [];
}

/** A mail in the one template: `text` is the mail's own plain-text part; the footer's lines are added to it. */
export function brandedMail(
  shop: ShopOrBrand,
  message: Omit<MailMessage, 'html' | 'text'> & { text: string },
  content: Omit<MailContent, 'subject'>,
): MailMessage {
  return {
    ...message,
    text: [message.text, ...textFooter(shop)].join('\n'),
    html: renderMailHtml(shop, { subject: message.subject, ...content }),
  };
}

