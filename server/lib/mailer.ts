/**
 * The mail port: what a module needs to hand a message over. Modules that send mail (orders, alerts,
 * newsletter, drops) depend on this type, not on the mail module; `server/services.ts` passes them the
 * mailer the mail module builds (`createMailer`), and tests pass an in-memory one.
 */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** Extra headers, e.g. List-Unsubscribe (RFC 8058) on alert mails. */
  headers?: Record<string, string>;
  /** Files attached as is (text content, e.g. a drop's .ics); kept in the retry queue with the message. */
  attachments?: Array<{ filename: string; content: string; contentType: string }>;
}

export interface Mailer {
  /**
   * Hands a message over. A message that cannot go out now (SMTP down, disk full) is kept and retried,
   * so this only rejects for a message that can never be sent.
   */
  send(message: MailMessage): Promise<void>;
  /** Messages kept for a retry (tests, /healthz-style checks). */
  pending?(): number;
  /** Tries every kept message once now. */
  retryNow?(): Promise<void>;
  /** Stops the retry timer (kept messages on disk are retried at the next start). */
  close?(): Promise<void>;
}
