import { AlertTriangle, ImageOff, Pencil, Trash2 } from 'lucide-react';
import { LOW_STOCK_THRESHOLD, type AdminProduct } from '../../../common/contracts/admin';
import type { AdminDrop } from '../../../common/contracts/drops';
import { displayPrice } from '../../../common/domain/money';
import { Button } from '../../components/ui/button';
import { cn } from '../../lib/cn';
import { formatDropLine } from './release-time';
import { thumbnailSrc } from './thumbnail-src';

interface AdminProductCardProps {
  product: AdminProduct;
  /** The product's drop, when it has one: sold and edition come from it (the Drops view's numbers). */
  drop?: AdminDrop | undefined;
  categoryName: string;
  onEdit: () => void;
  onDelete: () => void;
  deleting: boolean;
}

export function AdminProductCard({
  product,
  drop,
  categoryName,
  onEdit,
  onDelete,
  deleting,
}: AdminProductCardProps) {
  const soldOut = product.stock <= 0;
  const lowStock = !soldOut && product.stock <= LOW_STOCK_THRESHOLD;
  const image = product.images[0];
  return (
    <article className="flex flex-col border-2 border-ink bg-white" aria-label={product.name}>
      <div className="flex gap-3 p-3">
        <div className="h-20 w-20 shrink-0 overflow-hidden bg-bone">
          {image ? (
            <img
              src={thumbnailSrc(image)}
              alt=""
              className="h-full w-full object-cover"
              loading="lazy"
              width={80}
              height={80}
            />
          ) : (
            <div className="flex h-full w-full items-center justify-center text-muted">
              <ImageOff className="h-6 w-6" aria-hidden="true" />
            </div>
          )}
        </div>
        <div className="min-w-0 flex-1">
          <h3 className="truncate text-base font-bold" title={product.name}>
            {product.name}
          </h3>
          <p className="text-sm text-muted">{categoryName}</p>
          <p className="mt-1 flex flex-wrap items-baseline gap-x-2 text-sm">
            {product.salePrice ? (
              <>
                <span className="font-bold text-sale">
                  <span className="sr-only">Sale price </span>
                  {displayPrice(product.salePrice)}
                </span>
                <s className="text-muted">
                  <span className="sr-only">Price </span>
                  {displayPrice(product.price)}
                </s>
              </>
            ) : (
              <span className="font-bold">{displayPrice(product.price)}</span>
            )}
          </p>
        </div>
      </div>
      <dl className="grid grid-cols-2 gap-x-3 gap-y-1 border-t border-neutral-200 px-3 py-2 text-sm">
        <dt className="text-muted">Stock</dt>
        <dd
          className={cn(
            'flex items-center justify-end gap-1 font-semibold',
            (lowStock || soldOut) && 'text-red-700',
          )}
        >
          {(lowStock || soldOut) && <AlertTriangle className="h-4 w-4" aria-hidden="true" />}
          {soldOut ? (
            'Sold out'
          ) : (
            <>
              {product.stock}
              {lowStock && <span className="text-xs font-bold uppercase">Low stock</span>}
            </>
          )}
        </dd>
        <dt className="text-muted">Status</dt>
        <dd className="text-right">
          <span
            className={cn(
              'inline-block px-2 py-0.5 text-xs font-bold',
              product.inStock ? 'bg-green-100 text-green-900' : 'bg-neutral-200 text-neutral-900',
            )}
          >
            {product.inStock ? 'In Stock' : 'Out of Stock'}
          </span>
        </dd>
        <dt className="text-muted">Sold</dt>
        <dd className="text-right">
          {drop?.sold ?? product.soldCount} of {drop?.editionSize ?? product.editionSize}
        </dd>
        <dt className="text-muted">Limit</dt>
        <dd className="text-right">{product.maxPerShopper} per shopper</dd>
        {product.releaseAt && (
          <>
            <dt className="text-muted">Release</dt>
            <dd className="text-right">
              <time dateTime={product.releaseAt}>{formatDropLine(product.releaseAt)}</time>
            </dd>
          </>
        )}
      </dl>
      <div className="mt-auto flex gap-2 border-t border-neutral-200 p-3">
        <Button
          variant="outline"
          size="sm"
          className="flex-1"
          onClick={onEdit}
          aria-label={`Edit ${product.name}`}
        >
          <Pencil className="h-3.5 w-3.5" aria-hidden="true" />
          Edit
        </Button>
        <Button
          variant="destructive"
          size="sm"
          className="flex-1"
          onClick={onDelete}
          disabled={deleting}
          aria-label={`Delete ${product.name}`}
        >
          <Trash2 className="h-3.5 w-3.5" aria-hidden="true" />
          Delete
        </Button>
      </div>
    </article>
  );
}
