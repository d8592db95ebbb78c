import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  ChangeDrawEntryBody,
  ConfirmDrawEntryBody,
  DrawEntryView,
  EnterDrawBody,
  EnterDrawResult,
  OfflineAuthenticateBody,
  OfflineAuthenticateResult,
  PublicDraw,
} from '../../../common/contracts/draws';
import { ApiError, apiJson } from '../../lib/api-client';
import { readBootstrap } from '../../lib/bootstrap';

// The draw's calls (common/contracts/draws.ts lists the routes). Answers are parsed with the shared contract,
// loaded on first use like the other storefront contracts (zod's JIT switched off first: the CSP refuses it).

async function drawContracts() {
  await import('../../lib/zod-jitless');
  return import('../../../common/contracts/draws');
}
const publicDrawContract = () => drawContracts().then((m) => m.publicDrawSchema);
const entryContract = () => drawContracts().then((m) => m.drawEntryViewSchema);
const enterResultContract = () => drawContracts().then((m) => m.enterDrawResult);

export const productDrawKey = (productId: string) => ['/api/products', productId, 'draw'] as const;
export const drawKey = (id: string) => ['/api/draws', id] as const;
export const entryKey = (token: string) => ['/api/draw-entries', token] as const;

/**
 * The product's draw, or null when it is not sold by draw (a 200 with null: the ordinary answer). The server
 * renders the product page with it (the page's data): that seeds this query, as of the render's time, so
 * the first render (the server's and the hydrating one) already knows; a page rendered long ago asks again.
 */
export function useProductDraw(productId: string, enabled: boolean) {
  const boot = readBootstrap();
  const seeded = boot.productDraw?.productId === productId ? boot.productDraw : undefined;
  return useQuery<PublicDraw | null>({
    queryKey: productDrawKey(productId),
    queryFn: () =>
      apiJson('GET', `/api/products/${encodeURIComponent(productId)}/draw`, undefined, () =>
        publicDrawContract().then((schema) => schema.nullable()),
      ),
    enabled,
    initialData: seeded ? seeded.draw : undefined,
    initialDataUpdatedAt: seeded ? boot.now : undefined,
    staleTime: 30_000,
    retry: false,
  });
}

/** A draw for its public page; refreshed every 10 s until it has run (the seed and the list appear then). */
export function usePublicDraw(id: string, enabled: boolean) {
  return useQuery<PublicDraw>({
    queryKey: drawKey(id),
    queryFn: () => apiJson('GET', `/api/draws/${encodeURIComponent(id)}`, undefined, publicDrawContract),
    enabled,
    retry: (count, err) => !(err instanceof ApiError && err.status < 500) && count < 2,
    refetchInterval: (query) => {
      const s = query.state.data?.status;
      return s === 'settled' || s === 'cancelled' ? false : 10_000;
    },
  });
}

/** Entered (pending): the card is kept, and authorised once the mailed link confirms the entry (docs/draw.md). */
export function useEnterDraw(drawId: string) {
  return useMutation<EnterDrawResult, Error, EnterDrawBody>({
    mutationFn: (body) =>
      apiJson('POST', `/api/draws/${encodeURIComponent(drawId)}/entries`, body, enterResultContract),
  });
}

/**
 * The offline test gateway's stand-in for the bank's 3-D Secure page: `complete` authorises the hold, `fail`
 * is refused (402, the bank's words; nothing held).
 */
export function authenticateOffline(
  authorisationId: string,
  body: OfflineAuthenticateBody,
): Promise<OfflineAuthenticateResult> {
  return apiJson(
    'POST',
    `/api/payments/offline/authorisations/${encodeURIComponent(authorisationId)}/authenticate`,
    body,
    () => drawContracts().then((m) => m.offlineAuthenticateResult),
  );
}

/**
 * The entrant's own entry, by the token of the mailed link. Refreshed every 10 s while its result is still
 * to come (the draw settles in the background after it runs).
 */
export function useDrawEntry(token: string, enabled: boolean) {
  return useQuery<DrawEntryView>({
    queryKey: entryKey(token),
    queryFn: () => apiJson('GET', `/api/draw-entries/${encodeURIComponent(token)}`, undefined, entryContract),
    enabled,
    retry: (count, err) => !(err instanceof ApiError && err.status < 500) && count < 2,
    refetchInterval: (query) => {
      const e = query.state.data;
      if (!e) return false;
      const waiting = e.status === 'confirmed' || e.status === 'selected' || e.status === 'waiting';
      return waiting && e.drawStatus !== 'cancelled' ? 10_000 : false;
    },
  });
}

type EntryAction =
  | { kind: 'confirm'; body?: ConfirmDrawEntryBody }
  | { kind: 'change'; body: ChangeDrawEntryBody }
  | { kind: 'withdraw' };

/**
 * Confirm (the card is authorised then; `body` may name another card), change the sizes or withdraw: each
 * answers the entry as it now stands.
 */
export function useEntryAction(token: string) {
  const queryClient = useQueryClient();
  const url = `/api/draw-entries/${encodeURIComponent(token)}`;
  return useMutation<DrawEntryView, Error, EntryAction>({
    mutationFn: (action) =>
      action.kind === 'confirm'
        ? apiJson('POST', `${url}/confirm`, action.body ?? {}, entryContract)
        : action.kind === 'change'
          ? apiJson('PATCH', url, action.body, entryContract)
          : apiJson('DELETE', url, undefined, entryContract),
    onSuccess: (entry) => queryClient.setQueryData(entryKey(token), entry),
  });
}

/** The server's words for a refused call, or a plain fallback. */
export function problemText(err: unknown, fallback: string): string {
  return err instanceof ApiError ? err.serverMessage : fallback;
}
