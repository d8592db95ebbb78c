import { useCallback, useEffect, useId, useState } from 'react';
import { useForm, type FieldErrors } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { productPayloadSchema, type AdminProduct, type ProductPayload } from '../../../common/contracts/admin';
import { DEFAULT_MAX_PER_SHOPPER } from '../../../common/domain/purchase-limit';
import { Button } from '../../components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
} from '../../components/ui/dialog';
import { toast } from '../../components/ui/use-toast';
import {
  BasicsSection,
  MediaSection,
  PricingSection,
  StockSection,
  VariantsSection,
  type ProductFormSectionProps,
  type ProductFormValues,
} from './product-form-sections';
import { useSaveProduct } from './use-admin-data';
import { adminErrorMessage } from './use-admin-session';

interface ProductFormDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** null: add a new product. */
  product: AdminProduct | null;
}

type FormValues = ProductFormValues;

function toFormValues(product: AdminProduct | null): FormValues {
  if (!product) {
    return {
      name: '',
      description: '',
      price: '',
      salePrice: '',
      category: '',
      subcategory: '',
      materials: '',
      sustainabilityInfo: '',
      stock: '0',
      editionSize: '50',
      maxPerShopper: String(DEFAULT_MAX_PER_SHOPPER),
      releaseAt: '',
      inStock: true,
      isNew: false,
      isOnSale: false,
      images: [],
      sizes: [],
      colors: [],
    };
  }
  return {
    name: product.name,
    description: product.description,
    price: product.price,
    salePrice: product.salePrice ?? '',
    category: product.category,
    subcategory: product.subcategory ?? '',
    materials: product.materials,
    sustainabilityInfo: product.sustainabilityInfo,
    stock: String(product.stock),
    editionSize: String(product.editionSize),
    maxPerShopper: String(product.maxPerShopper),
    releaseAt: product.releaseAt ?? '',
    inStock: product.inStock,
    isNew: product.isNew,
    isOnSale: product.isOnSale,
    images: [...product.images],
    sizes: [...product.sizes],
    colors: product.colors.map((c) => ({ ...c })),
  };
}

/** The Add/Edit dialog; mounted fresh for each product so the form starts from its values. */
export function ProductFormDialog({ open, onOpenChange, product }: ProductFormDialogProps) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="max-w-3xl p-0" closeLabel="Close product form">
        {open && (
          <ProductForm key={product?.id ?? 'new'} product={product} onDone={() => onOpenChange(false)} />
        )}
      </DialogContent>
    </Dialog>
  );
}

function ProductForm({ product, onDone }: { product: AdminProduct | null; onDone: () => void }) {
  const uid = useId();
  const [uploading, setUploading] = useState(false);
  const onUploadingChange = useCallback((v: boolean) => setUploading(v), []);
  const save = useSaveProduct();

  const form = useForm<FormValues, unknown, ProductPayload>({
    resolver: zodResolver(productPayloadSchema),
    defaultValues: toFormValues(product),
  });
  const { handleSubmit, setValue, setError, watch, getValues } = form;
  const section: ProductFormSectionProps = { form, fieldId: (name) => `${uid}-${name}` };
  const images = watch('images') ?? [];
  const salePrice = watch('salePrice');
  const isOnSale = watch('isOnSale');
  // One on-sale control: entering a sale price puts the product on sale; unticking On Sale
  // clears the sale price. The two never disagree.
  const hasSalePrice = salePrice !== null && salePrice !== undefined && String(salePrice).trim() !== '';
  useEffect(() => {
    if (hasSalePrice && !getValues('isOnSale')) setValue('isOnSale', true, { shouldDirty: true });
  }, [hasSalePrice, getValues, setValue]);
  // Images uploaded in this visit: Cancel asks before throwing them away.
  const originalImages = product?.images ?? [];
  const newUploads = images.filter((src) => !originalImages.includes(src)).length;
  const cancel = () => {
    if (
      newUploads > 0 &&
      !window.confirm(
        `Discard the ${newUploads === 1 ? 'image' : `${newUploads} images`} you uploaded? They are not saved until you ${product ? 'update' : 'create'} the product.`,
      )
    )
      return;
    onDone();
  };

  const onValid = (payload: ProductPayload) => {
    if (isOnSale && payload.salePrice === null) {
      setError('salePrice', { message: 'Enter a sale price, or untick On Sale' }, { shouldFocus: true });
      return;
    }
    save.mutate(
      { id: product?.id ?? null, payload },
      {
        onSuccess: () => {
          toast({
            title: 'Success',
            description: product ? 'Product updated successfully' : 'Product created successfully',
          });
          onDone();
        },
        onError: (error) => {
          toast({
            title: 'Error',
            description: `Failed to save product: ${adminErrorMessage(error)}`,
            variant: 'destructive',
          });
        },
      },
    );
  };
  const onInvalid = (_errors: FieldErrors<FormValues>) => {
    toast({ title: 'Error', description: 'Invalid form data', variant: 'destructive' });
  };

  return (
    <form onSubmit={handleSubmit(onValid, onInvalid)} noValidate className="grid grid-cols-1">
      <DialogHeader className="border-b-2 border-ink px-6 py-5">
        <DialogTitle>{product ? 'Edit Product' : 'Add New Product'}</DialogTitle>
        <DialogDescription>
          {product ? `Change the details of ${product.name}.` : 'Fill in the details of the new drop.'} Sale
          Price and Subcategory are optional.
        </DialogDescription>
      </DialogHeader>

      <div className="grid gap-5 px-6 py-5 sm:grid-cols-2">
        <BasicsSection {...section} />
        <PricingSection {...section} />
        <StockSection {...section} />
        <VariantsSection {...section} />
        <MediaSection {...section} onUploadingChange={onUploadingChange} />
      </div>

      {/* Actions sit on the left so the bottom-right toast never covers them. */}
      <div className="sticky bottom-0 flex flex-col gap-2 border-t-2 border-ink bg-paper px-6 py-4 sm:flex-row">
        <Button type="submit" disabled={save.isPending || uploading} aria-busy={save.isPending}>
          {product ? 'Update Product' : 'Create Product'}
        </Button>
        <Button type="button" variant="outline" onClick={cancel}>
          Cancel
        </Button>
        {uploading && (
          <p className="self-center text-sm text-muted" aria-live="polite">
            Waiting for uploads to finish...
          </p>
        )}
      </div>
    </form>
  );
}
