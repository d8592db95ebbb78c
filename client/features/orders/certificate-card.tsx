import type { Certificate } from '../../../common/contracts/orders';
import { formatShopDate } from '../../../common/domain/ship-by';
import { formatEditionNumbers } from '../../../common/domain/stock';
import { ProductImage } from '../../components/product-image';

/** A piece's certificate (docs/product.md §2.13): what it is, its number, when it was made. Nothing personal. */
export function CertificateCard({ certificate, shopName }: { certificate: Certificate; shopName: string }) {
  const number = formatEditionNumbers([certificate.editionNumber], certificate.editionSize);
  return (
    <article aria-labelledby="certificate-heading" className="border border-hairline bg-surface">
      <div className="grid gap-0 md:grid-cols-[minmax(0,5fr)_minmax(0,6fr)]">
        <div className="aspect-[4/5] bg-bone md:aspect-auto">
          {certificate.productImage && (
            <ProductImage
              src={certificate.productImage}
              alt={certificate.productName}
              sizes="(min-width: 768px) 360px, 100vw"
              width={400}
              height={500}
              priority
              className="h-full w-full object-cover"
            />
          )}
        </div>
        <div className="flex flex-col justify-center gap-4 p-6 text-center md:p-10">
          <p className="type-eyebrow text-muted">{shopName} · Certificate of authenticity</p>
          <h1 id="certificate-heading" className="type-display-sm">
            {certificate.productName}
          </h1>
          <p className="type-mono mx-auto border-y border-hairline px-4 py-2 text-2xl" data-testid="certificate-number">
            {number}
          </p>
          <dl className="mx-auto grid gap-1 text-sm">
            <dt className="type-eyebrow text-muted">Made to order</dt>
            <dd className="font-medium">
              <time dateTime={certificate.madeOn}>{formatShopDate(certificate.madeOn)}</time>
            </dd>
          </dl>
          <p className="mx-auto max-w-sm text-sm text-muted">
            One of {certificate.editionSize} pieces ever made of this design, numbered and never reproduced once sold out.
          </p>
        </div>
      </div>
    </article>
  );
}
