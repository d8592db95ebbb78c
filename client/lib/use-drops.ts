import { useQuery } from '@tanstack/react-query';
import type { Product } from '../../common/contracts/catalog';
import { DEFAULT_DROP_TIMING, type DropTiming } from '../../common/domain/drop-schedule';
import { apiJson } from './api-client';
import { readBootstrap } from './bootstrap';

/** What home and /drops embed beside the usual bootstrap (server/modules/seo/seo.service.ts). */
interface DropsBootstrap {
  drops?: Product[];
  dropTiming?: DropTiming;
}

const boot = () => readBootstrap() as ReturnType<typeof readBootstrap> & DropsBootstrap;

/** The room's lead and the drop window the server renders with (defaults when the page did not say). */
export function dropTiming(): DropTiming {
  return boot().dropTiming ?? DEFAULT_DROP_TIMING;
}

/**
 * The products that are drops (a release time, or a sold-out edition), first from the page's embedded
 * list; after a navigation inside the app, from the catalogue list.
 */
export function useDrops() {
  return useQuery<Product[]>({
    queryKey: ['/api/products', 'drops'],
    queryFn: async () =>
      (await apiJson<Product[]>('GET', '/api/products')).filter((p) => p.releaseAt !== null || p.soldOutAt !== null),
    initialData: boot().drops,
  });
}
