import { Link, useParams } from 'wouter';
import { Skeleton } from '../components/ui/skeleton';
import { CertificateCard } from '../features/orders/certificate-card';
import { useCertificate } from '../features/orders/orders-api';
import { useDocumentTitle } from '../lib/use-document-title';
import { useShopSettings } from '../lib/use-shop-settings';

/** /certificate/:id: a piece's public certificate (docs/product.md §2.13); the id is signed, nothing personal shows. */
export default function CertificatePage() {
  const { id = '' } = useParams<{ id: string }>();
  const { shopName } = useShopSettings();
  const certificate = useCertificate(id);
  const found = certificate.data ?? null;
  useDocumentTitle(certificate.isPending ? null : found ? `${found.productName} No. ${found.editionNumber} | ${shopName}` : `Certificate not found | ${shopName}`);

  return (
    <div className="mx-auto max-w-4xl px-4 py-8 md:px-6 md:py-12">
      {certificate.isPending ? (
        <div role="status">
          <span className="sr-only">Loading the certificate</span>
          <Skeleton className="h-[28rem] w-full" />
        </div>
      ) : found ? (
        <CertificateCard certificate={found} shopName={shopName} />
      ) : (
        <div className="text-center">
          <h1 className="type-display-sm">Certificate not found</h1>
          <p className="mt-3 text-muted">This certificate does not exist or is no longer valid.</p>
        </div>
      )}
      <p className="mt-8 text-center text-sm">
        <Link href="/" className="font-semibold underline underline-offset-2 hover:no-underline">
          Discover the current drops
        </Link>
      </p>
    </div>
  );
}
