import { Skeleton } from '../components/ui/skeleton';
import { AdminDashboard } from '../features/admin/admin-dashboard';
import { AdminLoginCard } from '../features/admin/admin-login-card';
import { useAdminStatus } from '../features/admin/use-admin-session';
import { useShopSettings } from '../lib/use-shop-settings';
import { useDocumentTitle } from '../lib/use-document-title';

export default function AdminPage() {
  const status = useAdminStatus();
  const authenticated = status.data?.isAuthenticated === true;
  const { shopName } = useShopSettings();
  useDocumentTitle(`${authenticated ? 'Admin Dashboard' : 'Admin Access'} | ${shopName}`);

  return (
    <div className="mx-auto w-full max-w-7xl px-4 py-8 sm:py-12">
      {status.isLoading ? (
        <div
          className="mx-auto grid w-full max-w-md gap-4"
          aria-busy="true"
          aria-label="Checking admin access"
        >
          <Skeleton className="h-10 w-2/3" />
          <Skeleton className="h-40" />
        </div>
      ) : authenticated ? (
        <AdminDashboard />
      ) : (
        <div className="py-6 sm:py-12">
          <AdminLoginCard />
        </div>
      )}
    </div>
  );
}
