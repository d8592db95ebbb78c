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
   * Hands a message over: resolves once it is kept on disk (spooled, or with no SMTP its .eml written), so
   * a caller that awaits it may promise the mail (docs/operations.md "Mail"). A message that cannot go out
   * now (SMTP down or hanging, disk full) is kept and retried, so this only rejects for a message that can
   * never be sent.
   */
  send(message: MailMessage): Promise<void>;
  /** Messages kept until sent (tests, /healthz-style checks). */
  pending?(): number;
  /** Messages refused for good, in the dead-letter folder (DATA_DIR/mail-queue/dead). */
  deadLetters?(): number;
  /** Tries every kept message once now. */
  retryNow?(): Promise<void>;
  /** Stops sending within a bound (kept messages on disk are sent after the next start). */
  close?(): Promise<void>;
}
