import type { MailMessage } from '../../lib/mailer';
import { escapeHtml } from '../../lib/html';

/** The welcome e-mail carrying the subscriber's own single-use code. */
export function buildWelcomeMail(opts: {
  to: string;
  code: string;
  percent: number;
  shopName: string;
  shopUrl?: string;
}): MailMessage {
  const { to, code, percent, shopName, shopUrl } = opts;
  const subject = `Welcome to ${shopName} — your ${percent}% off code`;
  const text = [
    `Welcome to ${shopName}!`,
    '',
    `Thanks for joining the community. Here is your ${percent}% off code for your first order:`,
    '',
    `    ${code}`,
    '',
    'Enter it at checkout. It works once, on one order.',
    '',
    'Every design is capped at 50 pieces worldwide, made to order and never reproduced once sold out.',
    "You'll hear about the next drop before anyone else.",
    ...(shopUrl ? ['', `Shop the latest drops: ${shopUrl}`] : []),
    '',
    `— ${shopName}`,
  ].join('\n');
  const name = escapeHtml(shopName);
  const html = `<!doctype html>
<html lang="en"><body style="margin:0;background:#f5f5f0;font-family:Arial,Helvetica,sans-serif;color:#0a0a0a">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0"><tr><td align="center" style="padding:32px 16px">
<table role="presentation" width="560" cellpadding="0" cellspacing="0" style="max-width:560px;background:#ffffff">
<tr><td style="background:#0a0a0a;color:#f5f5f0;padding:24px 32px;font-size:28px;font-weight:bold;letter-spacing:2px">${name}</td></tr>
<tr><td style="padding:32px">
<h1 style="margin:0 0 16px;font-size:26px;text-transform:uppercase">Welcome to ${name}!</h1>
<p style="margin:0 0 16px;font-size:16px;line-height:1.5">Thanks for joining the community. Here is your ${percent}% off code for your first order:</p>
<p style="margin:0 0 16px;text-align:center"><span style="display:inline-block;background:#d7ff3a;color:#0a0a0a;padding:14px 24px;font-size:24px;font-weight:bold;letter-spacing:3px">${escapeHtml(code)}</span></p>
<p style="margin:0 0 16px;font-size:16px;line-height:1.5">Enter it at checkout. It works once, on one order.</p>
<p style="margin:0 0 16px;font-size:14px;line-height:1.5;color:#5c5c57">Every design is capped at 50 pieces worldwide, made to order and never reproduced once sold out. You'll hear about the next drop before anyone else.</p>
${shopUrl ? `<p style="margin:0"><a href="${escapeHtml(shopUrl)}" style="color:#0a0a0a;font-weight:bold">Shop the latest drops</a></p>` : ''}
</td></tr></table></td></tr></table></body></html>`;
  return { to, subject, text, html };
}

/**
 * To a mailbox already on the list when someone signs it up again (any spelling): the signup's answer is the
 * same as a new one's, so only the mailbox learns it. No second code.
 */
export function buildAlreadySubscribedMail(opts: { to: string; shopName: string; shopUrl?: string }): MailMessage {
  const { to, shopName, shopUrl } = opts;
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
  const html = `<!doctype html>
<html lang="en"><body style="margin:0;background:#f5f5f0;font-family:Arial,Helvetica,sans-serif;color:#0a0a0a">
<div style="max-width:560px;margin:32px auto;background:#ffffff;padding:32px">
<h1 style="margin:0 0 16px;font-size:24px;text-transform:uppercase">You're already on the ${escapeHtml(shopName)} list</h1>
<p style="margin:0 0 16px;font-size:16px;line-height:1.5">Someone (probably you) just signed this address up again. Nothing changes: you stay subscribed once, and your welcome code is the one we sent when you first joined.</p>
<p style="margin:0 0 16px;font-size:14px;line-height:1.5;color:#5c5c57">If it wasn't you, you can ignore this e-mail.</p>
${shopUrl ? `<p style="margin:0"><a href="${escapeHtml(shopUrl)}" style="color:#0a0a0a;font-weight:bold">Shop the latest drops</a></p>` : ''}
</div></body></html>`;
  return { to, subject, text, html };
}
