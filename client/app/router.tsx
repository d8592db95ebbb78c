import { lazy, Suspense, useEffect, useRef, type ComponentType } from 'react';
import { Redirect, Route, Switch, useLocation } from 'wouter';
import { matchRoute, PAGE_PATHS } from '../../common/domain/site-routes';
import { PageFallback } from '../components/page-fallback';

type PageModule = { default: ComponentType };
type PreloadablePage = ComponentType & { preload: () => Promise<PageModule> };

/**
 * React.lazy, plus a preload that lets the first render use the module directly: the entry script
 * awaits the current route's chunk (already modulepreloaded by the server) before rendering, so the
 * first paint is the page itself, not a skeleton that then shifts the layout.
 */
function lazyPage(factory: () => Promise<PageModule>): PreloadablePage {
  let loaded: ComponentType | null = null;
  let pending: Promise<PageModule> | null = null;
  const load = () =>
    (pending ??= factory().then((m) => {
      loaded = m.default;
      return m;
    }));
  const Lazy = lazy(load);
  const Page = (() => {
    const Loaded = loaded;
    return Loaded ? <Loaded /> : <Lazy />;
  }) as unknown as PreloadablePage;
  Page.preload = load;
  return Page;
}

const HomePage = lazyPage(() => import('../pages/home-page'));
const ProductPage = lazyPage(() => import('../pages/product-page'));
const CategoryPage = lazyPage(() => import('../pages/category-page'));
const SearchPage = lazyPage(() => import('../pages/search-page'));
const CheckoutPage = lazyPage(() => import('../pages/checkout-page'));
const OrderSuccessPage = lazyPage(() => import('../pages/order-success-page'));
const AdminPage = lazyPage(() => import('../pages/admin-page'));
const RefundPolicyPage = lazyPage(() => import('../pages/refund-policy-page'));
const SizeGuidePage = lazyPage(() => import('../pages/size-guide-page'));
const MissionPage = lazyPage(() => import('../pages/mission-page'));
const ShippingPage = lazyPage(() => import('../pages/shipping-page'));
const PrivacyPolicyPage = lazyPage(() => import('../pages/privacy-policy-page'));
const TermsOfServicePage = lazyPage(() => import('../pages/terms-of-service-page'));
const DropsPage = lazyPage(() => import('../pages/drops-page'));
const WishlistPage = lazyPage(() => import('../pages/wishlist-page'));
const DrawPage = lazyPage(() => import('../pages/draw-page'));
const DrawEntryPage = lazyPage(() => import('../pages/draw-entry-page'));
const FindOrderPage = lazyPage(() => import('../pages/find-order-page'));
const OrderPage = lazyPage(() => import('../pages/order-page'));
const CertificatePage = lazyPage(() => import('../pages/certificate-page'));
const NotFoundPage = lazyPage(() => import('../pages/not-found-page'));

/** Every route of the shared route table (common/domain/site-routes); each screen is its own chunk. */
export const routes: Array<{ path: string; component: PreloadablePage }> = [
  { path: PAGE_PATHS.home, component: HomePage },
  { path: PAGE_PATHS.product, component: ProductPage },
  { path: PAGE_PATHS.productAlias, component: ProductPage },
  { path: PAGE_PATHS.category, component: CategoryPage },
  { path: PAGE_PATHS.search, component: SearchPage },
  { path: PAGE_PATHS.checkout, component: CheckoutPage },
  { path: PAGE_PATHS.orderSuccess, component: OrderSuccessPage },
  { path: PAGE_PATHS.admin, component: AdminPage },
  { path: PAGE_PATHS.refundPolicy, component: RefundPolicyPage },
  { path: PAGE_PATHS.sizeGuide, component: SizeGuidePage },
  { path: PAGE_PATHS.mission, component: MissionPage },
  { path: PAGE_PATHS.shipping, component: ShippingPage },
  { path: PAGE_PATHS.privacyPolicy, component: PrivacyPolicyPage },
  { path: PAGE_PATHS.termsOfService, component: TermsOfServicePage },
  { path: PAGE_PATHS.drops, component: DropsPage },
  { path: PAGE_PATHS.wishlist, component: WishlistPage },
  { path: PAGE_PATHS.draw, component: DrawPage },
  { path: PAGE_PATHS.drawEntry, component: DrawEntryPage },
  { path: PAGE_PATHS.findOrder, component: FindOrderPage },
  { path: PAGE_PATHS.order, component: OrderPage },
  { path: PAGE_PATHS.certificate, component: CertificatePage },
];

/**
 * A new screen starts at the top. Not on the first render: the page was already on screen (server
 * rendered, or restored by the browser) and the shopper may have scrolled it before hydration.
 */
function ScrollToTop() {
  const [location] = useLocation();
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    window.scrollTo(0, 0);
  }, [location]);
  return null;
}

export function AppRouter() {
  return (
    <Suspense fallback={<PageFallback />}>
      <ScrollToTop />
      <Switch>
        {routes.map((r) => (
          <Route key={r.path} path={r.path} component={r.component} />
        ))}
        <Route path={PAGE_PATHS.categoryAlias}>
          {(params) => <Redirect to={`/category/${params.slug}`} replace />}
        </Route>
        <Route component={NotFoundPage} />
      </Switch>
    </Suspense>
  );
}

/** Load the chunk of the screen at `pathname` (used once, before the first render). */
export function preloadRoute(pathname: string): Promise<unknown> {
  const route = routes.find((r) => matchRoute(r.path, pathname));
  return (route?.component ?? NotFoundPage).preload().catch(() => undefined);
}
