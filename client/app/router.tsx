import { lazy, Suspense, useEffect, type ComponentType } from 'react';
import { Redirect, Route, Switch, useLocation } from 'wouter';
import { PageFallback } from '../components/page-fallback';

const HomePage = lazy(() => import('../pages/home-page'));
const ProductPage = lazy(() => import('../pages/product-page'));
const CategoryPage = lazy(() => import('../pages/category-page'));
const SearchPage = lazy(() => import('../pages/search-page'));
const CheckoutPage = lazy(() => import('../pages/checkout-page'));
const OrderSuccessPage = lazy(() => import('../pages/order-success-page'));
const AdminPage = lazy(() => import('../pages/admin-page'));
const RefundPolicyPage = lazy(() => import('../pages/refund-policy-page'));
const SizeGuidePage = lazy(() => import('../pages/size-guide-page'));
const MissionPage = lazy(() => import('../pages/mission-page'));
const ShippingPage = lazy(() => import('../pages/shipping-page'));
const NotFoundPage = lazy(() => import('../pages/not-found-page'));

/** Every route of SPEC §2; each screen is its own chunk. */
export const routes: Array<{ path: string; component: ComponentType }> = [
  { path: '/', component: HomePage },
  { path: '/product/:id', component: ProductPage },
  { path: '/products/:id', component: ProductPage },
  { path: '/category/:slug', component: CategoryPage },
  { path: '/search', component: SearchPage },
  { path: '/checkout', component: CheckoutPage },
  { path: '/order-success', component: OrderSuccessPage },
  { path: '/admin', component: AdminPage },
  { path: '/refund-policy', component: RefundPolicyPage },
  { path: '/size-guide', component: SizeGuidePage },
  { path: '/mission', component: MissionPage },
  { path: '/shipping', component: ShippingPage },
];

function ScrollToTop() {
  const [location] = useLocation();
  useEffect(() => {
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
        <Route path="/categories/:slug">{(params) => <Redirect to={`/category/${params.slug}`} replace />}</Route>
        <Route component={NotFoundPage} />
      </Switch>
    </Suspense>
  );
}
