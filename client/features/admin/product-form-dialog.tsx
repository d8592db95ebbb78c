import { useCallback, useEffect, useId, useRef, useState } from 'react';
import { useForm, type FieldErrors } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import {
  productPayloadSchema,
  stockConflictSchema,
  type AdminProduct,
  type ProductPayload,
} from '../../../common/contracts/admin';
import { ApiError } from '../../lib/api-client';
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
import { productPatchOf } from './product-patch';
import { SizeRunEditor } from './size-run-editor';
import {
  demoSizeRun,
  presetForCategory,
  type SizeRunEntry,
} from '../../../common/domain/size-run';
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
      nonReturnable: false,
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
    nonReturnable: product.nonReturnable,
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
  const { handleSubmit, setValue, setError, clearErrors, watch, getValues, setFocus } = form;
  // Read during render: react-hook-form tracks only the form state a render subscribed to.
  const { dirtyFields } = form.formState;
  const section: ProductFormSectionProps = { form, fieldId: (name) => `${uid}-${name}` };
  // The stock the owner last saw: sent as expectedStock with a stock change. After a conflict it is the
  // server's current number, so saving again writes the owner's number knowingly.
  const seenStock = useRef(product?.stock ?? 0);
  const [stockConflict, setStockConflict] = useState<number | null>(null);
  const showStockConflict = (currentStock: number) => {
    seenStock.current = currentStock;
    setStockConflict(currentStock);
    setError(
      'stock',
      { type: 'conflict', message: `Stock changed to ${currentStock} while you were editing — check and save again` },
      { shouldFocus: true },
    );
  };
  const takeCurrentStock = () => {
    if (stockConflict === null) return;
    setValue('stock', String(stockConflict), { shouldDirty: true });
    clearErrors('stock');
    setStockConflict(null);
    setFocus('stock');
  };
  // The size run (ADR 015) lives beside the form's fields: null while the edition is one pool.
  const loadedRun = runOf(product);
  const [run, setRun] = useState<SizeRunEntry[] | null>(loadedRun);
  // Pieces held or sold before the split stay on the old one run (for an unsplit product: its sold pieces).
  const keptPieces = product
    ? loadedRun
      ? product.sizeRun.filter((s) => s.size === null).reduce((a, s) => a + s.held + s.sold, 0)
      : product.soldCount
    : 0;
  const editionField = Number(watch('editionSize'));
  const editionSize = Number.isInteger(editionField) && editionField > 0 ? editionField : (product?.editionSize ?? 50);
  const category = String(watch('category') ?? '');
  const splitIntoSizes = () => {
    const listed = (getValues('sizes') ?? []) as string[];
    const sizes = listed.length > 0 ? listed : presetForCategory(category, String(getValues('subcategory') ?? '')).sizes;
    setRun(demoSizeRun(sizes, Math.max(0, editionSize - keptPieces)));
  };
  const runChanged = JSON.stringify(run) !== JSON.stringify(loadedRun);
  const sizeRunSlot = {
    split: run !== null,
    node:
      run === null ? (
        <div className="grid gap-2 border-2 border-ink bg-white p-3">
          <p className="text-sm">
            <span className="font-semibold">One run:</span>{' '}
            {product
              ? `${product.stock} of ${product.editionSize} left, any listed size.`
              : 'every piece in one pool, any listed size.'}{' '}
            Split it to give each size its own pieces; the pieces per size add up to the edition.
          </p>
          <Button type="button" variant="outline" size="sm" className="min-h-11 justify-self-start" onClick={splitIntoSizes}>
            Split into sizes
          </Button>
        </div>
      ) : (
        <SizeRunEditor
          category={category}
          subcategory={String(watch('subcategory') ?? '')}
          editionSize={editionSize}
          value={run}
          onChange={setRun}
          keptPieces={keptPieces}
        />
      ),
  };
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
    const withRun = run !== null && (runChanged || !product);
    const sizeRun = withRun ? run.map((e) => ({ ...e, size: e.size.trim() })) : undefined;
    let patch = product ? productPatchOf(payload, dirtyFields, seenStock.current) : null;
    // A new run is checked against the stock the owner saw, like a stock change (409 when a sale moved it).
    if (patch && sizeRun) patch = { ...patch, sizeRun, editionSize: payload.editionSize, expectedStock: seenStock.current };
    const request = product && patch
      ? { id: product.id, patch }
      : { id: null, payload: sizeRun ? { ...payload, sizeRun } : payload };
    save.mutate(
      request,
      {
        onSuccess: () => {
          toast({
            title: 'Success',
            description: product ? 'Product updated successfully' : 'Product created successfully',
          });
          onDone();
        },
        onError: (error) => {
          // A sale moved the stock since the form loaded: said at the Stock field, nothing was written.
          if (error instanceof ApiError && error.status === 409) {
            const conflict = stockConflictSchema.safeParse(safeJson(error.body));
            if (conflict.success) return showStockConflict(conflict.data.currentStock);
          }
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

      <div className="grid grid-cols-1 gap-5 px-6 py-5 sm:grid-cols-2">
        <BasicsSection {...section} />
        <PricingSection {...section} />
        <StockSection
          {...section}
          stockConflict={stockConflict}
          onUseCurrentStock={takeCurrentStock}
          sizeRun={sizeRunSlot}
        />
        <VariantsSection {...section} splitIntoSizes={run !== null} />
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

/** The product's run as the editor edits it (the sized rows); null while one pool. */
function runOf(product: AdminProduct | null): SizeRunEntry[] | null {
  const sized = product?.sizeRun.filter((s) => s.size !== null) ?? [];
  if (sized.length === 0) return null;
  return sized.map((s) => ({ size: s.size!, ...(s.colour ? { colour: s.colour } : {}), pieces: s.pieces }));
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
