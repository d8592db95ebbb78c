// The digest lives in server/lib/session-ref.ts: cart and checkout show it too, and modules import no other module.
export { publicSessionRef } from '../../lib/session-ref';
