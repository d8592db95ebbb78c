import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { PackageOpen, Plus } from 'lucide-react';
import type { AdminProduct } from '../../../common/contracts/admin';
import type { Category } from '../../../common/contracts/catalog';
import type { AdminDrop } from '../../../common/contracts/drops';
import { Button } from '../../components/ui/button';
import { Skeleton } from '../../components/ui/skeleton';
import { toast } from '../../components/ui/use-toast';
import { AdminProductCard } from './admin-product-card';
import { UpdatedAt } from './panel-parts';
import { ProductFormDialog } from './product-form-dialog';
import { useDeleteProduct } from './use-admin-data';

interface ProductsPanelProps {
  products: AdminProduct[] | undefined;
  /** The Drops view's list: a drop's sold and edition figures are shown from it, the same numbers as there. */
  drops: AdminDrop[] | undefined;
  isLoading: boolean;
  isError: boolean;
  updatedAt: number;
  refreshing: boolean;
  onRefresh: () => void;
}

export function ProductsPanel({ products, drops, isLoading, isError, updatedAt, refreshing, onRefresh }: ProductsPanelProps) {
  const [dialogOpen, setDialogOpen] = useState(false);
  const [editing, setEditing] = useState<AdminProduct | null>(null);
  const categories = useQuery<Category[]>({ queryKey: ['/api/categories'] });
  const remove = useDeleteProduct();

  const categoryName = (slug: string) => categories.data?.find((c) => c.slug === slug)?.name ?? slug;
  const dropOf = new Map((drops ?? []).map((d) => [d.productId, d]));

  const openAdd = () => {
    setEditing(null);
    setDialogOpen(true);
  };
  const openEdit = (product: AdminProduct) => {
    setEditing(product);
    setDialogOpen(true);
  };
  const onDelete = (product: AdminProduct) => {
    if (!window.confirm('Are you sure you want to delete this product?')) return;
    remove.mutate(product.id, {
      onSuccess: () => toast({ title: 'Success', description: 'Product deleted successfully' }),
      onError: () =>
        toast({ title: 'Error', description: 'Failed to delete product', variant: 'destructive' }),
    });
  };

  return (
    <div className="grid grid-cols-1 gap-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 className="font-display text-2xl uppercase tracking-wide">Products</h2>
        <div className="flex flex-wrap items-center gap-2">
          <UpdatedAt at={updatedAt} what="products" refreshing={refreshing} onRefresh={onRefresh} />
          <Button onClick={openAdd}>
            <Plus className="h-4 w-4" aria-hidden="true" />
            Add Product
          </Button>
        </div>
      </div>

      {isLoading ? (
        <div
          className="grid grid-cols-1 gap-4 md:grid-cols-2 lg:grid-cols-3"
          aria-busy="true"
          aria-label="Loading products"
        >
          {Array.from({ length: 6 }, (_, i) => (
            <Skeleton key={i} className="h-52" />
          ))}
        </div>
      ) : isError ? (
        <p role="alert" className="border-2 border-red-700 bg-red-50 p-4 text-sm text-red-900">
          Could not load products. Reload the page to try again.
        </p>
      ) : !products || products.length === 0 ? (
        <div className="flex flex-col items-center gap-2 border-2 border-dashed border-neutral-400 p-10 text-center">
          <PackageOpen className="h-10 w-10 text-muted" aria-hidden="true" />
          <p className="font-semibold">No products yet</p>
          <p className="text-sm text-muted">Add your first drop with the Add Product button.</p>
        </div>
      ) : (
        <ul className="grid grid-cols-1 gap-4 md:grid-cols-2 lg:grid-cols-3" aria-label="Products">
          {products.map((p) => (
            <li key={p.id} className="flex">
              <div className="flex w-full flex-col [&>article]:flex-1">
                <AdminProductCard
                  product={p}
                  drop={dropOf.get(p.id)}
                  categoryName={categoryName(p.category)}
                  onEdit={() => openEdit(p)}
                  onDelete={() => onDelete(p)}
                  deleting={remove.isPending && remove.variables === p.id}
                />
              </div>
            </li>
          ))}
        </ul>
      )}

      <ProductFormDialog open={dialogOpen} onOpenChange={setDialogOpen} product={editing} />
    </div>
  );
}
