import { useEffect } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { LogOut } from 'lucide-react';
import { ApiError } from '../../lib/api-client';
import { Button } from '../../components/ui/button';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../../components/ui/tabs';
import { DevicesPanel } from './devices-panel';
import { DiscountCodesPanel } from './discount-codes-panel';
import { DropsPanel } from './drops-panel';
import { DrawsPanel } from './draws-panel';
import { NewsletterPanel } from './newsletter-panel';
import { NotifyDemandPanel } from './notify-demand-panel';
import { OrdersPanel } from './orders-panel';
import { ProductsPanel } from './products-panel';
import { StoreCreditPanel } from './store-credit-panel';
import { isAnyDropLive, useAdminOrderCount, useAdminProducts, useDiscountCodes, useNewsletterSignups } from './use-admin-data';
import { useAdminDrops } from './use-admin-drops';
import { adminStatusKey, useAdminLogout } from './use-admin-session';

const count = (list: unknown[] | undefined) => (list ? ` (${list.length})` : '');

export function AdminDashboard() {
  const logout = useAdminLogout();
  // Mounted only for an authenticated admin, so these queries never run for anyone else.
  // While a drop is live, orders, products and drops refresh on their own (docs/operations.md, Running a drop);
  // the product cards' sold counts come from this same drops list, so they never disagree with the Drops view.
  const drops = useAdminDrops({ watch: true });
  const live = isAnyDropLive(drops.data);
  const products = useAdminProducts(true, live);
  const orderCount = useAdminOrderCount(true, live);
  const signups = useNewsletterSignups(true);
  const codes = useDiscountCodes(true);

  // An admin session that expired while the page was open: ask the server again, which shows the login card.
  const queryClient = useQueryClient();
  const expired = [products.error, orderCount.error, signups.error, codes.error, drops.error].some(
    (e) => e instanceof ApiError && e.status === 401,
  );
  useEffect(() => {
    if (expired) void queryClient.invalidateQueries({ queryKey: adminStatusKey });
  }, [expired, queryClient]);

  return (
    <div className="grid grid-cols-1 gap-6">
      <div className="flex flex-wrap items-end justify-between gap-3 border-b-2 border-ink pb-4">
        <div>
          <p className="text-xs font-bold uppercase tracking-[0.2em] text-muted">Back office</p>
          <h1 className="font-display text-4xl uppercase tracking-wide sm:text-5xl">Admin Dashboard</h1>
        </div>
        <Button variant="outline" onClick={() => logout.mutate()} disabled={logout.isPending}>
          <LogOut className="h-4 w-4" aria-hidden="true" />
          Logout
        </Button>
      </div>

      <Tabs defaultValue="products">
        <TabsList aria-label="Admin sections" className="grid w-full grid-cols-2 sm:inline-flex sm:w-auto">
          <TabsTrigger value="products" className="normal-case px-2 sm:px-6">
            Products{count(products.data)}
          </TabsTrigger>
          <TabsTrigger value="orders" className="normal-case px-2 sm:px-6">
            Orders{orderCount.data === undefined ? '' : ` (${orderCount.data})`}
          </TabsTrigger>
          <TabsTrigger value="newsletter" className="normal-case px-2 sm:px-6">
            Newsletter{count(signups.data)}
          </TabsTrigger>
          <TabsTrigger value="discounts" className="normal-case px-2 sm:px-6">
            Discount Codes{count(codes.data)}
          </TabsTrigger>
          <TabsTrigger value="drops" className="normal-case px-2 sm:px-6">
            Drops
          </TabsTrigger>
          <TabsTrigger value="draws" className="normal-case px-2 sm:px-6">
            Draws
          </TabsTrigger>
          <TabsTrigger value="notify" className="normal-case px-2 sm:px-6">
            Notify me
          </TabsTrigger>
          <TabsTrigger value="credit" className="normal-case px-2 sm:px-6">
            Store credit
          </TabsTrigger>
          <TabsTrigger value="devices" className="normal-case px-2 sm:px-6">
            Devices
          </TabsTrigger>
        </TabsList>
        <TabsContent value="products">
          <ProductsPanel
            products={products.data}
            drops={drops.data}
            isLoading={products.isLoading}
            isError={products.isError}
            updatedAt={products.dataUpdatedAt}
            refreshing={products.isFetching || drops.isFetching}
            onRefresh={() => void Promise.all([products.refetch(), drops.refetch()])}
          />
        </TabsContent>
        <TabsContent value="orders">
          <OrdersPanel orderCount={orderCount.data} countError={orderCount.isError} live={live} />
        </TabsContent>
        <TabsContent value="newsletter">
          <NewsletterPanel signups={signups.data} isLoading={signups.isLoading} isError={signups.isError} />
        </TabsContent>
        <TabsContent value="discounts">
          <DiscountCodesPanel codes={codes.data} isLoading={codes.isLoading} isError={codes.isError} />
        </TabsContent>
        <TabsContent value="drops">
          <DropsPanel />
        </TabsContent>
        <TabsContent value="draws">
          <DrawsPanel products={products.data} />
        </TabsContent>
        <TabsContent value="notify">
          <NotifyDemandPanel live={live} />
        </TabsContent>
        <TabsContent value="credit">
          <StoreCreditPanel />
        </TabsContent>
        <TabsContent value="devices">
          <DevicesPanel />
        </TabsContent>
      </Tabs>
    </div>
  );
}
