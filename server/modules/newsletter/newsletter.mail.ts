import type { MailMessage } from '../../lib/mailer';
import { brandedMail, type MailBrand } from '../../lib/mail-template';

/** The welcome e-mail carrying the subscriber's own single-use code. */
export function buildWelcomeMail(opts: {
  to: string;
  code: string;
  percent: number;
  shopName: string;
  shopUrl?: string;
  /** SUPPORT_EMAIL: the footer names it. */
  supportEmail?: string;
}): MailMessage {
  const { to, code, percent, shopName, shopUrl } = opts;
  const brand: MailBrand = { shopName, shopUrl, supportEmail: opts.supportEmail };
  const subject = `Welcome to ${shopName} — your ${percent}% off code`;
  // The same two sentences in both parts.
  const promise = [
    'Every design is capped at 50 pieces worldwide, made to order and never reproduced once sold out.',
    'For a drop, tap Notify me on its page: we mail you when its waiting room opens.',
  ];
  const text = [
    `Welcome to ${shopName}!`,
    '',
    `Thanks for joining the community. Here is your ${percent}% off code for your first order:`,
    '',
    `    ${code}`,
    '',
    'Enter it at checkout. It works once, on one order.',
    '',
    ...promise,
    ...(shopUrl ? ['', `Shop the latest drops: ${shopUrl}`] : []),
    '',
    `— ${shopName}`,
  ].join('\n');
  return brandedMail(
    brand,
    { to, subject, text },
    {
      preview: `Your ${percent}% off code for your first order.`,
      heading: `Welcome to ${shopName}!`,
      lead: [`Thanks for joining the community. Here is your ${percent}% off code for your first order:`, { code }, 'Enter it at checkout. It works once, on one order.'],
      cta: shopUrl ? { url: shopUrl, label: 'Shop the latest drops' } : undefined,
      after: [
        { text: promise.join(' '), tone: 'muted' },
      ],
    },
  );
}

/**
 * To a mailbox already on the list when someone signs it up again (any spelling): the signup's answer is the
 * same as a new one's, so only the mailbox learns it. No second code.
 */
export function buildAlreadySubscribedMail(opts: { to: string; shopName: string; shopUrl?: string; supportEmail?: string }): MailMessage {
  const { to, shopName, shopUrl } = opts;
  const brand: MailBrand = { shopName, shopUrl, supportEmail: opts.supportEmail };
  const subject = `You're already on the ${shopName} list`;
  const lines = [
    `You're already on the ${shopName} list.`,
    '',
    'Someone (probably you) just signed this address up again. Nothing changes: you stay subscribed once, and',
    'your welcome code is the one we sent when you first joined.',
    '',
    "If it wasn't you, you can ignore this e-mail.",
    ...(shopUrl ? ['', `Shop the latest drops: ${shopUrl}`] : []),
    '',
    `— ${shopName}`,
  ];
  const text = lines.join('\n');
  return brandedMail(
    brand,
    { to, subject, text },
    {
      heading: `You're already on the ${shopName} list`,
      lead: [
        'Someone (probably you) just signed this address up again. Nothing changes: you stay subscribed once, and your welcome code is the one we sent when you first joined.',
        { text: "If it wasn't you, you can ignore this e-mail.", tone: 'muted' },
      ],
      cta: shopUrl ? { url: shopUrl, label: 'Shop the latest drops' } : undefined,
    },
  );
}
