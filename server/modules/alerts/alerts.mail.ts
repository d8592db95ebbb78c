import { escapeHtml } from '../../lib/html';
import type { MailMessage } from '../mail/mail.service';

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

/** A piece came back and is kept for this subscriber until `reservedUntil` (their link claims it). */
export function buildRestockMail(input: AlertMailInput & { reservedUntil: Date; minutes: number }): MailMessage {
  const until = `${input.reservedUntil.toISOString().slice(11, 16)} UTC`;
  return compose(
    input,
    `A piece of ${input.productName} is back — kept for you for ${input.minutes} minutes`,
    [
      `A piece of ${input.productName} came back, and you were first on the waiting list.`,
      `It is kept for you until ${until} (${input.minutes} minutes): only the link below can add it to a cart until then.`,
      "After that it goes to the next person on the list.",
    ],
    'Claim your piece',
  );
}
