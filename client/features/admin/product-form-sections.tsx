import type { ReactNode } from 'react';
import { Controller, type UseFormRegisterReturn, type UseFormReturn } from 'react-hook-form';
import { useQuery } from '@tanstack/react-query';
import { Check, X } from 'lucide-react';
import { adminColorPalette, type ProductPayload, type ProductPayloadInput } from '../../../common/contracts/admin';
import { categorySizes, type Category, type ProductColor } from '../../../common/contracts/catalog';
import { FormField, type FormFieldControl } from '../../components/ui/form-field';
import { Input } from '../../components/ui/input';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '../../components/ui/select';
import { cn } from '../../lib/cn';
import { addColour, removeColour } from './colour-palette';
import { ImagePicker } from './image-picker';
import { isoToLocalInput, localInputToIso, localTimeZone } from './release-time';

// The product form's sections: each renders its fields into the dialog's two-column grid.

export type ProductFormValues = ProductPayloadInput;

export interface ProductFormSectionProps {
  form: UseFormReturn<ProductFormValues, unknown, ProductPayload>;
  /** The DOM id of a field's control (stable for the dialog's life). */
  fieldId: (name: keyof ProductFormValues) => string;
}

const requiredFields = new Set<keyof ProductFormValues>([
  'name',
  'description',
  'price',
  'category',
  'materials',
  'sustainabilityInfo',
  'stock',
  'editionSize',
  'maxPerShopper',
]);

const textareaClass =
  'w-full border-2 border-neutral-300 bg-white px-3 py-2 text-base text-ink focus-visible:border-ink focus-visible:outline-3 focus-visible:outline-offset-0 focus-visible:outline-blue-600 aria-[invalid=true]:border-red-700';

function fieldError({ form }: ProductFormSectionProps, name: keyof ProductFormValues): string | undefined {
  const e = form.formState.errors[name];
  return e && typeof e.message === 'string' ? e.message : undefined;
}

/** One labelled product field: its id, required mark, error and a11y wiring come from the form. */
function ProductField({
  section,
  name,
  label,
  description,
  className,
  children,
}: {
  section: ProductFormSectionProps;
  name: keyof ProductFormValues;
  label: string;
  description?: ReactNode;
  className?: string;
  children: (control: FormFieldControl) => ReactNode;
}) {
  return (
    <FormField
      id={section.fieldId(name)}
      label={label}
      description={description}
      required={requiredFields.has(name)}
      error={fieldError(section, name)}
      className={className}
    >
      {children}
    </FormField>
  );
}

/** An error of a field without a single control (sizes, images): announced when it appears. */
function GroupError({ message }: { message: string | undefined }) {
  return message ? (
    <p className="text-sm font-medium text-red-700" role="alert">
      {message}
    </p>
  ) : null;
}

/** Name, description, category (which sets the sizes), subcategory, materials, sustainability. */
export function BasicsSection(section: ProductFormSectionProps) {
  const { register, control, setValue } = section.form;
  const categories = useQuery<Category[]>({ queryKey: ['/api/categories'] });
  return (
    <>
      <ProductField section={section} name="name" label="Name" className="sm:col-span-2">
        {(c) => <Input autoComplete="off" {...register('name')} {...c} />}
      </ProductField>

      <ProductField section={section} name="description" label="Description" className="sm:col-span-2">
        {(c) => <textarea rows={3} className={textareaClass} {...register('description')} {...c} />}
      </ProductField>

      <ProductField section={section} name="category" label="Category">
        {(c) => (
          <Controller
            control={control}
            name="category"
            render={({ field }) => (
              <Select
                value={field.value || undefined}
                onValueChange={(slug) => {
                  field.onChange(slug);
                  // docs/product.md §4: choosing a category replaces the sizes with that category's list.
                  setValue('sizes', [...(categorySizes[slug] ?? [])], { shouldDirty: true });
                }}
              >
                <SelectTrigger ref={field.ref} onBlur={field.onBlur} {...c}>
                  <SelectValue placeholder="Select a category" />
                </SelectTrigger>
                <SelectContent>
                  {(categories.data ?? []).map((cat) => (
                    <SelectItem key={cat.slug} value={cat.slug}>
                      {cat.name}
                    </SelectItem>
                  ))}
                </SelectContent>
              </Select>
            )}
          />
        )}
      </ProductField>

      <ProductField section={section} name="subcategory" label="Subcategory">
        {(c) => <Input autoComplete="off" {...register('subcategory')} {...c} />}
      </ProductField>

      <ProductField section={section} name="materials" label="Materials" className="sm:col-span-2">
        {(c) => <Input autoComplete="off" {...register('materials')} {...c} />}
      </ProductField>

      <ProductField
        section={section}
        name="sustainabilityInfo"
        label="Sustainability Info"
        className="sm:col-span-2"
      >
        {(c) => <textarea rows={2} className={textareaClass} {...register('sustainabilityInfo')} {...c} />}
      </ProductField>
    </>
  );
}

/** Price and sale price (entering a sale price ticks On Sale: see the stock section). */
export function PricingSection(section: ProductFormSectionProps) {
  const { register } = section.form;
  const money = { type: 'number', inputMode: 'decimal', step: '0.01', min: '0' } as const;
  return (
    <>
      <ProductField section={section} name="price" label="Price">
        {(c) => <Input {...money} {...register('price')} {...c} />}
      </ProductField>
      <ProductField section={section} name="salePrice" label="Sale Price">
        {(c) => <Input {...money} {...register('salePrice')} {...c} />}
      </ProductField>
    </>
  );
}

/** Stock, edition size, limit per shopper and the availability flags (In Stock, New, On Sale). */
export function StockSection({
  stockConflict = null,
  onUseCurrentStock,
  sizeRun = null,
  ...section
}: ProductFormSectionProps & {
  /** The server's stock after a 409 (a sale while the form was open); its message is the Stock field's error. */
  stockConflict?: number | null;
  onUseCurrentStock?: () => void;
  /**
   * The size run (ADR 015), shown under the edition size: the editor when split, else the one run and its
   * "Split into sizes" action. While split, the stock is the sum of the sizes and has no field of its own.
   */
  sizeRun?: { split: boolean; node: ReactNode } | null;
}) {
  const { register, setValue } = section.form;
  const { fieldId } = section;
  const onSaleField = register('isOnSale');
  const whole = { type: 'number', inputMode: 'numeric', step: '1' } as const;
  return (
    <>
      <div className="grid content-start gap-1.5">
        {sizeRun?.split ? (
          <p className="text-sm text-muted">Stock is the pieces left of all sizes together: set them per size below.</p>
        ) : (
          <ProductField
            section={section}
            name="stock"
            label="Stock"
            description="Pieces left to buy now (at most the edition size less those sold)."
          >
            {(c) => <Input {...whole} min="0" {...register('stock')} {...c} />}
          </ProductField>
        )}
        {stockConflict !== null && onUseCurrentStock && (
          <button
            type="button"
            onClick={onUseCurrentStock}
            className="min-h-11 justify-self-start text-sm font-semibold underline underline-offset-2 hover:no-underline"
          >
            Use the current stock ({stockConflict})
          </button>
        )}
      </div>
      <ProductField
        section={section}
        name="editionSize"
        label="Edition size"
        description="All pieces ever made of this design (No. 17 of 50). Split into sizes, the pieces per size add up to it."
      >
        {(c) => <Input {...whole} min="1" {...register('editionSize')} {...c} />}
      </ProductField>
      {sizeRun && <div className="min-w-0 sm:col-span-2">{sizeRun.node}</div>}
      {/* Per-shopper limit (docs/product.md §9): units of this product one shopper may buy, all sizes together. */}
      <ProductField section={section} name="maxPerShopper" label="Limit per shopper">
        {(c) => <Input {...whole} min="1" max="50" {...register('maxPerShopper')} {...c} />}
      </ProductField>
      <ReleaseTimeField section={section} />

      <fieldset className="sm:col-span-2">
        <legend className="mb-2 text-sm font-semibold">Availability</legend>
        <div className="flex flex-wrap gap-x-6 gap-y-2">
          <Checkbox id={fieldId('inStock')} label="In Stock" {...register('inStock')} />
          <Checkbox id={fieldId('isNew')} label="New" {...register('isNew')} />
          <Checkbox
            id={fieldId('isOnSale')}
            label="On Sale"
            {...onSaleField}
            onChange={async (e) => {
              await onSaleField.onChange(e);
              // One on-sale control: unticking clears the sale price, ticking asks for one.
              if (!e.target.checked) setValue('salePrice', '', { shouldDirty: true });
              else document.getElementById(fieldId('salePrice'))?.focus();
            }}
          />
        </div>
      </fieldset>
      {/* The refund policy: "non-returnable items marked at listing"; the product page says so. */}
      <fieldset className="sm:col-span-2">
        <legend className="mb-2 text-sm font-semibold">Returns</legend>
        <Checkbox id={fieldId('nonReturnable')} label="Final sale — not returnable" {...register('nonReturnable')} />
      </fieldset>
    </>
  );
}

/**
 * Scheduled release (docs/product.md §9): date and time in the owner's zone, kept as the UTC instant.
 * Empty: on sale now.
 */
function ReleaseTimeField({ section }: { section: ProductFormSectionProps }) {
  return (
    <FormField
      id={section.fieldId('releaseAt')}
      label="Release time"
      error={fieldError(section, 'releaseAt')}
      description={`Your time zone (${localTimeZone()}). Leave empty to sell now; before this time the shop shows a countdown and nobody can buy it.`}
      className="sm:col-span-2"
    >
      {(c) => (
        <Controller
          control={section.form.control}
          name="releaseAt"
          render={({ field }) => (
            <Input
              type="datetime-local"
              name={field.name}
              ref={field.ref}
              onBlur={field.onBlur}
              value={isoToLocalInput(typeof field.value === 'string' ? field.value : null)}
              onChange={(e) => field.onChange(localInputToIso(e.target.value))}
              className="sm:max-w-xs"
              {...c}
            />
          )}
        />
      )}
    </FormField>
  );
}

/** Sizes (set by the category) and colours (from the admin palette). */
export function VariantsSection({ splitIntoSizes = false, ...section }: ProductFormSectionProps & { splitIntoSizes?: boolean }) {
  const { watch, setValue, getValues } = section.form;
  const sizesLabelId = `${section.fieldId('sizes')}-label`;
  const sizes = watch('sizes') ?? [];
  const colours = (watch('colors') ?? []) as ProductColor[];
  return (
    <>
      {/* Split into sizes, the run above names the sizes: the category's list is only its preset. */}
      <div className={splitIntoSizes ? 'hidden' : 'grid gap-2 sm:col-span-2'}>
        <span className="text-sm font-semibold" id={sizesLabelId}>
          Sizes
        </span>
        {sizes.length > 0 ? (
          <ul className="flex flex-wrap gap-2" aria-labelledby={sizesLabelId}>
            {sizes.map((s) => (
              <li key={s} className="border-2 border-ink bg-white px-2.5 py-1 text-sm font-semibold">
                {s}
              </li>
            ))}
          </ul>
        ) : (
          <p className="text-sm text-muted">No sizes. Choosing a category sets its sizes.</p>
        )}
        <GroupError message={fieldError(section, 'sizes')} />
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
    </>
  );
}

/** Images: uploads (resized on the server) in display order. */
export function MediaSection({
  onUploadingChange,
  ...section
}: ProductFormSectionProps & { onUploadingChange: (uploading: boolean) => void }) {
  const { watch, setValue, getValues } = section.form;
  const images = watch('images') ?? [];
  return (
    <fieldset className="grid gap-2 sm:col-span-2">
      <legend className="mb-2 text-sm font-semibold">Images</legend>
      <ImagePicker
        images={images}
        onUploadingChange={onUploadingChange}
        onAppend={(paths) => setValue('images', [...(getValues('images') ?? []), ...paths], { shouldDirty: true })}
        onRemove={(index) =>
          setValue(
            'images',
            (getValues('images') ?? []).filter((_, i) => i !== index),
            { shouldDirty: true },
          )
        }
      />
      <GroupError message={fieldError(section, 'images')} />
    </fieldset>
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
