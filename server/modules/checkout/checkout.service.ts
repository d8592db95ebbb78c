import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client';
import type { CartService } from '../cart/cart.service';
import type { DiscountsService } from '../discounts/discounts.service';
import type { InventoryService } from '../inventory/inventory.service';
import type { PaymentGateway } from '../payments/payment-gateway';
import type { SettingsService } from '../settings/settings.service';
import { createCustomerInfoService } from './customer-info.service';
import { createPurchaseService } from './purchase.service';
import { createTotalsService } from './totals.service';

export type { CheckoutRow, PaymentCheck } from './purchase.service';

interface CheckoutDeps {
  db: Db;
  cart: CartService;
  inventory: InventoryService;
  discounts: DiscountsService;
  settings: SettingsService;
  gateway: PaymentGateway;
  log: FastifyBaseLogger;
  /** Called after a commit that moved stock (the catalogue shown to shoppers must follow at once). */
  onStockChanged?: () => void;
}

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
