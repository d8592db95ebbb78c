import crypto from 'node:crypto';
import type { KeyService } from '../../lib/keys';

/**
 * Keys of the buyer's order links (docs/security.md "Order links"). One key derived from the session secret
 * for this module alone; every MAC names its purpose, so a key made to view order N opens nothing else
 * (another order, a certificate, any other signed thing of the shop). The links do not expire: they are the
 * buyer's way back to the order for as long as the mails are kept; rotating SESSION_SECRET revokes them all,
 * and "Find my order" mails a fresh one.
 */
export type LinkPurpose = 'view-order' | 'certificate';

const MAC_BYTES = 16;
const UUID_BYTES = 16;
/** A certificate id: base64url of the line's id and the piece's number (18 bytes → 24 chars), then its MAC. */
const CERT_PAYLOAD_CHARS = 24;

export function createOrderLinks(keys: KeyService) {
  const key = keys.derive('fifty:order-links');

  function sign(purpose: LinkPurpose, subject: string): string {
    return crypto.createHmac('sha256', key).update(`v1|${purpose}|${subject}`).digest().subarray(0, MAC_BYTES).toString('base64url');
  }

  function verify(purpose: LinkPurpose, subject: string, mac: string): boolean {
    const want = Buffer.from(sign(purpose, subject));
    const got = Buffer.from(mac);
    return got.length === want.length && crypto.timingSafeEqual(got, want);
  }

  return {
    /** Exposed for tests that forge a key of the wrong purpose. */
    sign,
    /** The key of "view order N". */
    viewKey: (orderNumber: string) => sign('view-order', orderNumber),
    isViewKey: (orderNumber: string, key: string | undefined) => !!key && verify('view-order', orderNumber, key),
    /** The public id of one piece's certificate: the order line and the edition number, signed. */
    certificateId(orderItemId: string, editionNumber: number): string {
      const payload = Buffer.alloc(UUID_BYTES + 2);
      Buffer.from(orderItemId.replace(/-/g, ''), 'hex').copy(payload);
      payload.writeUInt16BE(editionNumber, UUID_BYTES);
      const encoded = payload.toString('base64url');
      return `${encoded}${sign('certificate', encoded)}`;
    },
    /** The line and number a certificate id names, or null when it is not one this shop signed. */
    readCertificateId(id: string): { orderItemId: string; editionNumber: number } | null {
      const encoded = id.slice(0, CERT_PAYLOAD_CHARS);
      if (!/^[\w-]+$/.test(id) || !verify('certificate', encoded, id.slice(CERT_PAYLOAD_CHARS))) return null;
      const payload = Buffer.from(encoded, 'base64url');
      if (payload.length !== UUID_BYTES + 2) return null;
      const hex = payload.subarray(0, UUID_BYTES).toString('hex');
      return {
        orderItemId: `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`,
        editionNumber: payload.readUInt16BE(UUID_BYTES),
      };
    },
  };
}

export type OrderLinks = ReturnType<typeof createOrderLinks>;
