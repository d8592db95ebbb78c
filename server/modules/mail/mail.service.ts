import fs from 'node:fs/promises';
import path from 'node:path';
import crypto from 'node:crypto';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** Extra headers, e.g. List-Unsubscribe (RFC 8058) on alert mails. */
  headers?: Record<string, string>;
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
}

/** SMTP when SMTP_URL is set; otherwise each message is an .eml file in DATA_DIR/outbox. */
// nodemailer is loaded with the first message, not at boot (idle memory: bench/README.md).
const loadNodemailer = () => import('nodemailer').then((m) => m.default);

export function createMailer(opts: { smtpUrl?: string; from: string; outboxDir: string }): Mailer {
  if (opts.smtpUrl) {
    const smtpUrl = opts.smtpUrl;
    let transport: Promise<import('nodemailer').Transporter> | null = null;
    return {
      async send(message) {
        transport ??= loadNodemailer().then((n) => n.createTransport(smtpUrl));
        await (await transport).sendMail({ from: opts.from, ...message });
      },
    };
  }
  let transport: Promise<import('nodemailer').Transporter> | null = null;
  return {
    async send(message) {
      transport ??= loadNodemailer().then((n) => n.createTransport({ streamTransport: true, buffer: true, newline: 'unix' }));
      const info = await (await transport).sendMail({ from: opts.from, ...message });
      await fs.mkdir(opts.outboxDir, { recursive: true });
      const stamp = new Date().toISOString().replace(/[:.]/g, '-');
      const file = path.join(opts.outboxDir, `${stamp}-${crypto.randomBytes(4).toString('hex')}.eml`);
      await fs.writeFile(file, info.message as Buffer);
    },
  };
}
