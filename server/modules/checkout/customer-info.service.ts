import type { Db, Tx } from '../../db/client';
import type { CustomerInfo, CustomerInfoBody } from '../../../common/contracts/checkout';
import { publicSessionRef } from '../../lib/session-ref';
import {
  findCustomerInfo,
  moveCustomerInfo,
  upsertCustomerInfo,
  type CustomerInfoRow,
} from './checkout.repository';
import type { CheckoutCustomer } from './checkout.tables';

export type { CustomerInfoRow };

function toCustomerInfo(row: CustomerInfoRow): CustomerInfo {
  return { id: row.id, sessionId: publicSessionRef(row.sessionId), ...toCheckoutCustomer(row) };
}

export function toCheckoutCustomer(row: CustomerInfoRow): CheckoutCustomer {
  const {
    email,
    firstName,
    lastName,
    phone,
    shippingAddress,
    shippingCity,
    shippingState,
    shippingZip,
    shippingCountry,
  } = row;
  return {
    email,
    firstName,
    lastName,
    phone,
    shippingAddress,
    shippingCity,
    shippingState,
    shippingZip,
    shippingCountry,
  };
}

/** The shopper's saved shipping details, one row per session. */
export function createCustomerInfoService(deps: { db: Db }) {
  const { db } = deps;
  return {
    async getCustomerInfo(sessionId: string | null): Promise<CustomerInfo | null> {
      if (!sessionId) return null;
      const row = await findCustomerInfo(db, sessionId);
      return row ? toCustomerInfo(row) : null;
    },

    async saveCustomerInfo(sessionId: string, body: CustomerInfoBody): Promise<CustomerInfo> {
      return toCustomerInfo(await upsertCustomerInfo(db, sessionId, body));
    },

    /** The session id changed (admin login): the saved details follow, inside the caller's transaction. */
    moveCustomerInfo(tx: Tx, fromSid: string, toSid: string): Promise<void> {
      return moveCustomerInfo(tx, fromSid, toSid);
    },

    /** The saved row (what a checkout snapshots), or null. */
    find(sessionId: string): Promise<CustomerInfoRow | null> {
      return findCustomerInfo(db, sessionId);
    },
  };
}

export type CustomerInfoService = ReturnType<typeof createCustomerInfoService>;
