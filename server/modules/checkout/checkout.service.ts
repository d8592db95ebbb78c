import { createCustomerInfoService } from './customer-info.service';
import { createPurchaseService, type PurchaseDeps } from './purchase.service';
import { createTotalsService } from './totals.service';

export type { CheckoutRow, PaymentCheck, PaymentIntentBody } from './purchase.service';

/** What the purchase workflow needs, less the two services wired here. */
type CheckoutDeps = Omit<PurchaseDeps, 'customerInfo' | 'totals'>;

/**
 * The checkout module's service: customer info (customer-info.service), totals and discount checks
 * (totals.service) and the purchase workflow with its lifecycle (purchase.service), wired together.
 */
export function createCheckoutService(deps: CheckoutDeps) {
  const customerInfo = createCustomerInfoService({ db: deps.db });
  const totals = createTotalsService({ ...deps, customerInfo });
  const purchase = createPurchaseService({ ...deps, customerInfo, totals });
  return {
    getCustomerInfo: customerInfo.getCustomerInfo,
    saveCustomerInfo: customerInfo.saveCustomerInfo,
    moveCustomerInfo: customerInfo.moveCustomerInfo,
    validateDiscount: totals.validateDiscount,
    calculateTotals: totals.calculateTotals,
    ...purchase,
  };
}

export type CheckoutService = ReturnType<typeof createCheckoutService>;
