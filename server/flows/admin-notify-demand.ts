import { isUuid, type NotifyDemand, type NotifySignupList } from '../../common/contracts/admin';
import { notFound } from '../lib/http-error';
import type { AlertsService } from '../modules/alerts/alerts.service';
import type { CatalogService } from '../modules/catalog/catalog.service';

/**
 * The owner's view of 'Notify me' demand (docs/architecture.md, Flows): the alerts module counts and lists
 * signups, the catalogue names the products.
 *   notifyDemand:  1. countSignups (alerts)  2. nameProducts (catalog; products deleted since are left out)
 *   notifySignups: 1. productExists (catalog; 404 otherwise)  2. listSignups (alerts)
 */
export function createNotifyDemandFlow(deps: {
  alerts: Pick<AlertsService, 'countSignupsByProduct' | 'listSignups'>;
  catalog: Pick<CatalogService, 'listProductsFresh' | 'getProductFresh'>;
}) {
  const { alerts, catalog } = deps;
  return {
    /** Notify-me signups per product, most wanted first. */
    async notifyDemand(): Promise<NotifyDemand> {
      const counts = await alerts.countSignupsByProduct();
      const names = new Map((await catalog.listProductsFresh()).map((p) => [p.id, p.name]));
      return counts.flatMap((c) => (names.has(c.productId) ? [{ ...c, productName: names.get(c.productId)! }] : []));
    },
    async notifySignups(productId: string): Promise<NotifySignupList> {
      if (!isUuid(productId) || !(await catalog.getProductFresh(productId))) throw notFound('Product not found');
      return alerts.listSignups(productId);
    },
  };
}
