import { useCallback, useEffect, useId, useState, type ReactNode } from 'react';
import { Controller, useForm, type FieldErrors, type UseFormRegisterReturn } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useQuery } from '@tanstack/react-query';
import { Check, X } from 'lucide-react';
import {
  adminColorPalette,
  productPayloadSchema,
  type AdminProduct,
  type ProductPayload,
  type ProductPayloadInput,
} from '../../../common/contracts/admin';
import { categorySizes, type Category, type ProductColor } from '../../../common/contracts/catalog';
import { Button } from '../../components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
} from '../../components/ui/dialog';
import { Input } from '../../components/ui/input';
import { Label } from '../../components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '../../components/ui/select';
import { toast } from '../../components/ui/use-toast';
import { cn } from '../../lib/cn';
import { addColour, removeColour } from './colour-palette';
import { ImagePicker } from './image-picker';
import { useSaveProduct } from './use-admin-data';
import { adminErrorMessage } from './use-admin-session';

interface ProductFormDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** null: add a new product. */
  product: AdminProduct | null;
}

type FormValues = ProductPayloadInput;

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
  const id = (name: string) => `${uid}-${name}`;
  const [uploading, setUploading] = useState(false);
  const onUploadingChange = useCallback((v: boolean) => setUploading(v), []);
  const save = useSaveProduct();
  const categories = useQuery<Category[]>({ queryKey: ['/api/categories'] });

  const form = useForm<FormValues, unknown, ProductPayload>({
    resolver: zodResolver(productPayloadSchema),
    defaultValues: toFormValues(product),
  });
  const { register, control, handleSubmit, setValue, setError, watch, getValues, formState } = form;
  const errors = formState.errors;
  const sizes = watch('sizes') ?? [];
  const colours = (watch('colors') ?? []) as ProductColor[];
  const images = watch('images') ?? [];
  const salePrice = watch('salePrice');
  const isOnSale = watch('isOnSale');
  // One on-sale control: entering a sale price puts the product on sale; unticking On Sale
  // clears the sale price. The two never disagree.
  const hasSalePrice = salePrice !== null && salePrice !== undefined && String(salePrice).trim() !== '';
  useEffect(() => {
    if (hasSalePrice && !getValues('isOnSale')) setValue('isOnSale', true, { shouldDirty: true });
  }, [hasSalePrice, getValues, setValue]);
  const onSaleField = register('isOnSale');
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

  const fieldError = (name: keyof FormValues): string | undefined => {
    const e = errors[name];
    return e && typeof e.message === 'string' ? e.message : undefined;
  };
  const described = (name: keyof FormValues) => ({
    'aria-required': requiredFields.has(name) || undefined,
    ...(fieldError(name) ? { 'aria-invalid': true as const, 'aria-describedby': id(`${name}-error`) } : {}),
  });

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
        <Field
          label="Name"
          required
          htmlFor={id('name')}
          error={fieldError('name')}
          errorId={id('name-error')}
          className="sm:col-span-2"
        >
          <Input id={id('name')} autoComplete="off" {...register('name')} {...described('name')} />
        </Field>

        <Field
          label="Description"
          required
          htmlFor={id('description')}
          error={fieldError('description')}
          errorId={id('description-error')}
          className="sm:col-span-2"
        >
          <textarea
            id={id('description')}
            rows={3}
            className={textareaClass}
            {...register('description')}
            {...described('description')}
          />
        </Field>

        <Field
          label="Price"
          required
          htmlFor={id('price')}
          error={fieldError('price')}
          errorId={id('price-error')}
        >
          <Input
            id={id('price')}
            type="number"
            inputMode="decimal"
            step="0.01"
            min="0"
            {...register('price')}
            {...described('price')}
          />
        </Field>

        <Field
          label="Sale Price"
          htmlFor={id('salePrice')}
          error={fieldError('salePrice')}
          errorId={id('salePrice-error')}
        >
          <Input
            id={id('salePrice')}
            type="number"
            inputMode="decimal"
            step="0.01"
            min="0"
            {...register('salePrice')}
            {...described('salePrice')}
          />
        </Field>

        <Field
          label="Category"
          required
          htmlFor={id('category')}
          error={fieldError('category')}
          errorId={id('category-error')}
        >
          <Controller
            control={control}
            name="category"
            render={({ field }) => (
              <Select
                value={field.value || undefined}
                onValueChange={(slug) => {
                  field.onChange(slug);
                  // SPEC §4: choosing a category replaces the sizes with that category's list.
                  setValue('sizes', [...(categorySizes[slug] ?? [])], { shouldDirty: true });
                }}
              >
                <SelectTrigger
                  id={id('category')}
                  ref={field.ref}
                  onBlur={field.onBlur}
                  {...described('category')}
                >
                  <SelectValue placeholder="Select a category" />
                </SelectTrigger>
                <SelectContent>
                  {(categories.data ?? []).map((c) => (
                    <SelectItem key={c.slug} value={c.slug}>
                      {c.name}
                    </SelectItem>
                  ))}
                </SelectContent>
              </Select>
            )}
          />
        </Field>

        <Field
          label="Subcategory"
          htmlFor={id('subcategory')}
          error={fieldError('subcategory')}
          errorId={id('subcategory-error')}
        >
          <Input
            id={id('subcategory')}
            autoComplete="off"
            {...register('subcategory')}
            {...described('subcategory')}
          />
        </Field>

        <Field
          label="Materials"
          required
          htmlFor={id('materials')}
          error={fieldError('materials')}
          errorId={id('materials-error')}
        >
          <Input
            id={id('materials')}
            autoComplete="off"
            {...register('materials')}
            {...described('materials')}
          />
        </Field>

        <Field
          label="Stock"
          required
          htmlFor={id('stock')}
          error={fieldError('stock')}
          errorId={id('stock-error')}
        >
          <Input
            id={id('stock')}
            type="number"
            inputMode="numeric"
            step="1"
            min="0"
            {...register('stock')}
            {...described('stock')}
          />
        </Field>

        <Field
          label="Edition size"
          required
          htmlFor={id('editionSize')}
          error={fieldError('editionSize')}
          errorId={id('editionSize-error')}
        >
          <Input
            id={id('editionSize')}
            type="number"
            inputMode="numeric"
            step="1"
            min="1"
            {...register('editionSize')}
            {...described('editionSize')}
          />
        </Field>

        <Field
          label="Sustainability Info"
          required
          htmlFor={id('sustainabilityInfo')}
          error={fieldError('sustainabilityInfo')}
          errorId={id('sustainabilityInfo-error')}
          className="sm:col-span-2"
        >
          <textarea
            id={id('sustainabilityInfo')}
            rows={2}
            className={textareaClass}
            {...register('sustainabilityInfo')}
            {...described('sustainabilityInfo')}
          />
        </Field>

        <fieldset className="sm:col-span-2">
          <legend className="mb-2 text-sm font-semibold">Availability</legend>
          <div className="flex flex-wrap gap-x-6 gap-y-2">
            <Checkbox id={id('inStock')} label="In Stock" {...register('inStock')} />
            <Checkbox id={id('isNew')} label="New" {...register('isNew')} />
            <Checkbox
              id={id('isOnSale')}
              label="On Sale"
              {...onSaleField}
              onChange={async (e) => {
                await onSaleField.onChange(e);
                if (!e.target.checked) setValue('salePrice', '', { shouldDirty: true });
                else document.getElementById(id('salePrice'))?.focus();
              }}
            />
          </div>
        </fieldset>

        <div className="grid gap-2 sm:col-span-2">
          <span className="text-sm font-semibold" id={id('sizes-label')}>
            Sizes
          </span>
          {sizes.length > 0 ? (
            <ul className="flex flex-wrap gap-2" aria-labelledby={id('sizes-label')}>
              {sizes.map((s) => (
                <li key={s} className="border-2 border-ink bg-white px-2.5 py-1 text-sm font-semibold">
                  {s}
                </li>
              ))}
            </ul>
          ) : (
            <p className="text-sm text-muted">No sizes. Choosing a category sets its sizes.</p>
          )}
          {fieldError('sizes') && (
            <p className="text-sm font-medium text-red-700" role="alert">
              {fieldError('sizes')}
            </p>
          )}
        </div>

        <fieldset className="grid gap-2 sm:col-span-2">
          <legend className="mb-2 text-sm font-semibold">Colours</legend>
          <div className="grid grid-cols-2 gap-1.5 sm:grid-cols-4">
            {adminColorPalette.map((c) => {
              const chosen = colours.some((o) => o.name === c.name);
              return (
                <button
                  key={c.name}
                  type="button"
                  aria-pressed={chosen}
                  onClick={() =>
                    setValue('colors', addColour(getValues('colors') as ProductColor[], c), {
                      shouldDirty: true,
                    })
                  }
                  className={cn(
                    'flex h-10 cursor-pointer items-center gap-2 border-2 px-2 text-left text-xs font-semibold hover:border-ink',
                    chosen ? 'border-ink bg-bone' : 'border-neutral-300 bg-white',
                  )}
                >
                  <span
                    aria-hidden="true"
                    className="h-5 w-5 shrink-0 border border-neutral-400"
                    style={{ backgroundColor: c.value }}
                  />
                  <span className="flex-1 truncate">{c.name}</span>
                  {chosen && <Check className="h-4 w-4 shrink-0" aria-hidden="true" />}
                </button>
              );
            })}
          </div>
          {colours.length > 0 ? (
            <ul className="mt-1 flex flex-wrap gap-2" aria-label="Chosen colours">
              {colours.map((c) => (
                <li
                  key={c.name}
                  className="inline-flex items-center gap-1.5 border-2 border-ink bg-white py-0.5 pl-2 pr-0.5 text-sm"
                >
                  <span
                    aria-hidden="true"
                    className="h-3.5 w-3.5 border border-neutral-400"
                    style={{ backgroundColor: c.value }}
                  />
                  {c.name}
                  <button
                    type="button"
                    aria-label={`Remove colour ${c.name}`}
                    onClick={() =>
                      setValue('colors', removeColour(getValues('colors') as ProductColor[], c.name), {
                        shouldDirty: true,
                      })
                    }
                    className="inline-flex h-7 w-7 cursor-pointer items-center justify-center hover:bg-black/10"
                  >
                    <X className="h-3.5 w-3.5" aria-hidden="true" />
                  </button>
                </li>
              ))}
            </ul>
          ) : (
            <p className="text-sm text-muted">No colours chosen.</p>
          )}
        </fieldset>

        <fieldset className="grid gap-2 sm:col-span-2">
          <legend className="mb-2 text-sm font-semibold">Images</legend>
          <ImagePicker
            images={images}
            onUploadingChange={onUploadingChange}
            onAppend={(paths) =>
              setValue('images', [...(getValues('images') ?? []), ...paths], { shouldDirty: true })
            }
            onRemove={(index) =>
              setValue(
                'images',
                (getValues('images') ?? []).filter((_, i) => i !== index),
                { shouldDirty: true },
              )
            }
          />
          {fieldError('images') && (
            <p className="text-sm font-medium text-red-700" role="alert">
              {fieldError('images')}
            </p>
          )}
        </fieldset>
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

const requiredFields = new Set<keyof FormValues>([
  'name',
  'description',
  'price',
  'category',
  'materials',
  'sustainabilityInfo',
  'stock',
  'editionSize',
]);

const textareaClass =
  'w-full border-2 border-neutral-300 bg-white px-3 py-2 text-base text-ink focus-visible:border-ink focus-visible:outline-3 focus-visible:outline-offset-0 focus-visible:outline-blue-600 aria-[invalid=true]:border-red-700';

function Field({
  label,
  htmlFor,
  error,
  errorId,
  required = false,
  className,
  children,
}: {
  label: string;
  htmlFor: string;
  error?: string;
  errorId: string;
  required?: boolean;
  className?: string;
  children: ReactNode;
}) {
  return (
    <div className={cn('grid content-start gap-1.5', className)}>
      <div className="flex items-baseline gap-0.5">
        <Label htmlFor={htmlFor}>{label}</Label>
        {/* Outside the label so the field's name is exactly the label; fields carry aria-required. */}
        {required && (
          <span aria-hidden="true" className="text-sm font-semibold text-red-700">
            *
          </span>
        )}
      </div>
      {children}
      {error && (
        <p id={errorId} className="text-sm font-medium text-red-700">
          {error}
        </p>
      )}
    </div>
  );
}

const Checkbox = ({ id, label, ...props }: { id: string; label: string } & UseFormRegisterReturn) => (
  <div className="flex items-center gap-2">
    <input id={id} type="checkbox" className="h-5 w-5 cursor-pointer accent-ink" {...props} />
    <label htmlFor={id} className="cursor-pointer text-sm font-medium">
      {label}
    </label>
  </div>
);
