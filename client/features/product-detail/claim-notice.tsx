import { useEffect, useState } from 'react';
import type { AlertClaim } from '../../../common/contracts/alerts';
import { ApiError, apiJson } from '../../lib/api-client';

/**
 * The restock mail's link (/product/:id?claim=…, ADR 011): the claim is posted once, the server
 * sets this browser's claim cookie, and the shopper is told how long the piece is kept for them.
 */
export function ClaimNotice({ productId }: { productId: string }) {
  const [message, setMessage] = useState<{ text: string; ok: boolean } | null>(null);

  useEffect(() => {
    const token = new URLSearchParams(window.location.search).get('claim');
    if (!token) return;
    let cancelled = false;
    apiJson<AlertClaim>('POST', '/api/alerts/claim', { token })
      .then((claim) => {
        if (cancelled) return;
        setMessage({ text: claim.productId === productId ? claim.message : 'This link is for another piece.', ok: true });
      })
      .catch((err: unknown) => {
        if (!cancelled)
          setMessage({ text: err instanceof ApiError ? err.serverMessage : 'Could not check your link. Please reload.', ok: false });
      });
    return () => {
      cancelled = true;
    };
  }, [productId]);

  return (
    <p role="status" className={message ? `border-l-2 p-3 text-sm font-medium ${message.ok ? 'border-success bg-success-soft text-success' : 'border-danger bg-danger-soft text-danger'}` : 'sr-only'}>
      {message?.text ?? ''}
    </p>
  );
}
