import { z } from 'zod';
import { parseMoney } from '../domain/money';
import { CREDIT_GRANT_SOURCES } from '../domain/store-credit';
import { safeString } from './safe-string';

// Store credit (docs/product.md "Store credit"). Amounts are the shop's "12.34" strings (ADR 016).
//
//   POST /api/admin/store-credit   body AdminCreditGrant → 201 CreditAccount (the mailbox's balance after the grant)
//   GET  /api/admin/store-credit   → 200 { accounts: CreditAccount[] } (balances and their grants, newest first)
//   GET  /api/checkout/store-credit → 200 CheckoutCreditBalance (the session's saved e-mail's balance)

export const STORE_CREDIT_MESSAGES = {
  email: 'Please enter a valid email address',
  amount: 'Amount must be a number of dollars with at most 2 decimals, greater than 0',
  reason: 'Give a reason for the credit',
} as const;

const creditAmount = safeString()
  .trim()
  .transform((raw, ctx) => {
    if (!/^\d{1,6}(\.\d{1,2})?$/.test(raw) || parseMoney(raw) <= 0) {
      ctx.addIssue({ code: 'custom', message: STORE_CREDIT_MESSAGES.amount });
      return z.NEVER;
    }
    return parseMoney(raw);
  });

/** The owner's grant by hand: to a mailbox, an amount, and why (kept on the ledger). */
export const adminCreditGrant = z.object({
  email: safeString({ message: STORE_CREDIT_MESSAGES.email }).trim().email({ message: STORE_CREDIT_MESSAGES.email }).max(254, { message: STORE_CREDIT_MESSAGES.email }),
  amount: creditAmount,
  reason: safeString({ message: STORE_CREDIT_MESSAGES.reason }).trim().min(1, { message: STORE_CREDIT_MESSAGES.reason }).max(300),
});
export type AdminCreditGrant = z.infer<typeof adminCreditGrant>;

export const creditGrantSchema = z.object({
  id: safeString(),
  amount: safeString(),
  left: safeString(),
  source: z.enum(CREDIT_GRANT_SOURCES),
  reason: safeString().nullable(),
  orderId: safeString().nullable(),
  grantedAt: safeString(),
  expiresAt: safeString(),
  expired: z.boolean(),
});
export type CreditGrant = z.infer<typeof creditGrantSchema>;

export const creditAccountSchema = z.object({
  email: safeString(),
  balance: safeString(),
  /** The soonest expiry of the credit left, with how much runs out then; null with no balance. */
  nextExpiry: z.object({ amount: safeString(), expiresAt: safeString() }).nullable(),
  grants: z.array(creditGrantSchema),
});
export type CreditAccount = z.infer<typeof creditAccountSchema>;

/** The balance offered at checkout: the session's saved address's credit, and the soonest of it to run out. */
export const checkoutCreditBalanceSchema = z.object({
  balance: safeString(),
  nextExpiry: z.object({ amount: safeString(), expiresAt: safeString() }).nullable(),
});
export type CheckoutCreditBalance = z.infer<typeof checkoutCreditBalanceSchema>;

export const creditAccountListSchema = z.object({ accounts: z.array(creditAccountSchema) });
