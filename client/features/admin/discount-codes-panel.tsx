import { useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import { Plus, TicketPercent } from 'lucide-react';
import { discountCodeCreateBody, type DiscountCode } from '../../../common/contracts/admin';
import { Button } from '../../components/ui/button';
import { FormField } from '../../components/ui/form-field';
import { Input } from '../../components/ui/input';
import { toast } from '../../components/ui/use-toast';
import { cn } from '../../lib/cn';
import { WELCOME_PREFIX } from '../../../common/domain/welcome-code';
import { PanelEmpty, PanelError, PanelLoading, PanelTable } from './panel-parts';
import { useCreateDiscountCode, useSetDiscountCodeActive } from './use-admin-data';
import { adminErrorMessage } from './use-admin-session';

interface DiscountCodesPanelProps {
  codes: DiscountCode[] | undefined;
  isLoading: boolean;
  isError: boolean;
}

const expiryFormat = new Intl.DateTimeFormat('en-US', {
  month: 'short',
  day: 'numeric',
  year: 'numeric',
  timeZone: 'UTC',
});

type CodeKind = 'shop' | 'welcome';

/** Welcome codes are made one per newsletter subscriber; the owner's own codes are everything else. */
const kindOf = (c: DiscountCode): CodeKind => (c.code.startsWith(WELCOME_PREFIX) ? 'welcome' : 'shop');

export function DiscountCodesPanel({ codes: allCodes, isLoading, isError }: DiscountCodesPanelProps) {
  const setActive = useSetDiscountCodeActive();
  const now = Date.now();
  const [kind, setKind] = useState<CodeKind>('shop');
  const counts = { shop: 0, welcome: 0 };
  for (const c of allCodes ?? []) counts[kindOf(c)]++;
  const codes = allCodes?.filter((c) => kindOf(c) === kind);

  const toggle = (code: DiscountCode) => {
    const isActive = !code.isActive;
    setActive.mutate(
      { id: code.id, isActive },
      {
        onSuccess: () =>
          toast({
            title: 'Success',
            description: `Discount code ${code.code} ${isActive ? 'activated' : 'deactivated'}`,
          }),
        onError: (error) =>
          toast({
            title: 'Error',
            description: `Failed to update discount code: ${adminErrorMessage(error)}`,
            variant: 'destructive',
          }),
      },
    );
  };

  return (
    <div className="grid grid-cols-1 gap-6">
      <h2 className="font-display text-2xl uppercase tracking-wide">Discount Codes</h2>
      <CreateDiscountCodeForm />

      <div role="group" aria-label="Show codes" className="flex flex-wrap gap-2">
        {(
          [
            ['shop', 'Shop codes'],
            ['welcome', 'Welcome codes'],
          ] as const
        ).map(([value, label]) => (
          <Button
            key={value}
            type="button"
            size="sm"
            variant={kind === value ? 'default' : 'outline'}
            aria-pressed={kind === value}
            onClick={() => setKind(value)}
          >
            {label} ({counts[value]})
          </Button>
        ))}
      </div>
      {kind === 'welcome' && (
        <p className="-mt-3 text-sm text-muted">
          Single-use 10% codes, one e-mailed to each new newsletter subscriber.
        </p>
      )}

      {isLoading ? (
        <PanelLoading>Loading discount codes...</PanelLoading>
      ) : isError ? (
        <PanelError what="discount codes" />
      ) : !codes || codes.length === 0 ? (
        <PanelEmpty icon={TicketPercent}>
          <p className="font-semibold">
            {kind === 'shop' ? 'No discount codes yet' : 'No welcome codes yet'}
          </p>
        </PanelEmpty>
      ) : (
        <PanelTable label="Discount codes table" caption="Discount codes" minWidth="min-w-[40rem]">
          <thead className="border-b-2 border-ink bg-bone text-xs uppercase tracking-wide">
            <tr>
              <th scope="col" className="px-4 py-2.5">
                Code
              </th>
              <th scope="col" className="px-4 py-2.5">
                Discount
              </th>
              <th scope="col" className="px-4 py-2.5">
                Uses
              </th>
              <th scope="col" className="px-4 py-2.5">
                Expires
              </th>
              <th scope="col" className="px-4 py-2.5">
                Status
              </th>
              <th scope="col" className="px-4 py-2.5">
                <span className="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-neutral-200">
            {codes.map((c) => {
              const expired = c.expiresAt !== null && Date.parse(c.expiresAt) < now;
              const usedUp = c.maxUsage !== null && c.usageCount >= c.maxUsage;
              return (
                <tr key={c.id}>
                  <th scope="row" className="px-4 py-2.5 font-mono font-bold">
                    {c.code}
                  </th>
                  <td className="px-4 py-2.5">{c.discountPercent}%</td>
                  <td className="whitespace-nowrap px-4 py-2.5">
                    {c.usageCount} / {c.maxUsage ?? 'unlimited'}
                  </td>
                  <td className="whitespace-nowrap px-4 py-2.5">
                    {c.expiresAt ? (
                      <time dateTime={c.expiresAt} className={cn(expired && 'text-red-700')}>
                        {expiryFormat.format(new Date(c.expiresAt))}
                        {expired && ' (expired)'}
                      </time>
                    ) : (
                      'Never'
                    )}
                  </td>
                  <td className="px-4 py-2.5">
                    <span
                      className={cn(
                        'inline-block px-2 py-0.5 text-xs font-bold',
                        c.isActive && !expired && !usedUp
                          ? 'bg-green-100 text-green-900'
                          : 'bg-neutral-200 text-neutral-900',
                      )}
                    >
                      {!c.isActive ? 'Inactive' : expired ? 'Expired' : usedUp ? 'Used up' : 'Active'}
                    </span>
                  </td>
                  <td className="px-4 py-2.5 text-right">
                    <Button
                      size="sm"
                      variant={c.isActive ? 'outline' : 'default'}
                      onClick={() => toggle(c)}
                      disabled={setActive.isPending && setActive.variables?.id === c.id}
                      aria-label={`${c.isActive ? 'Deactivate' : 'Activate'} ${c.code}`}
                    >
                      {c.isActive ? 'Deactivate' : 'Activate'}
                    </Button>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </PanelTable>
      )}
    </div>
  );
}

interface CodeFormValues {
  code: string;
  discountPercent: string;
  maxUsage: string;
  unlimited: boolean;
  expiresAt: string;
}

const emptyCodeForm: CodeFormValues = {
  code: '',
  discountPercent: '',
  maxUsage: '1',
  unlimited: false,
  expiresAt: '',
};

function CreateDiscountCodeForm() {
  const uid = useId();
  const id = (name: string) => `${uid}-${name}`;
  const create = useCreateDiscountCode();
  const { register, handleSubmit, watch, setError, reset, formState } = useForm<CodeFormValues>({
    defaultValues: emptyCodeForm,
  });
  const unlimited = watch('unlimited');
  const errors = formState.errors;

  const onSubmit = (values: CodeFormValues) => {
    const parsed = discountCodeCreateBody.safeParse({
      code: values.code,
      discountPercent: values.discountPercent.trim() === '' ? undefined : Number(values.discountPercent),
      maxUsage: values.unlimited ? null : values.maxUsage.trim() === '' ? undefined : Number(values.maxUsage),
      expiresAt: values.expiresAt || null,
    });
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        const field = issue.path[0];
        if (
          field === 'code' ||
          field === 'discountPercent' ||
          field === 'maxUsage' ||
          field === 'expiresAt'
        ) {
          setError(field, { message: issue.message });
        }
      }
      toast({ title: 'Error', description: 'Invalid form data', variant: 'destructive' });
      return;
    }
    create.mutate(parsed.data, {
      onSuccess: () => {
        toast({ title: 'Success', description: `Discount code ${parsed.data.code} created` });
        reset(emptyCodeForm);
      },
      onError: (error) =>
        toast({
          title: 'Error',
          description: `Failed to create discount code: ${adminErrorMessage(error)}`,
          variant: 'destructive',
        }),
    });
  };

  return (
    <form
      onSubmit={handleSubmit(onSubmit)}
      noValidate
      aria-labelledby={id('title')}
      className="grid gap-4 border-2 border-ink bg-white p-4 sm:grid-cols-2 lg:grid-cols-[1fr_8rem_12rem_12rem_auto] lg:items-start"
    >
      <h3 id={id('title')} className="text-sm font-bold uppercase tracking-wide sm:col-span-2 lg:col-span-5">
        New discount code
      </h3>
      {/* Code and percent are required without the visual mark: the form is short and says so on error. */}
      <FormField label="Code" error={errors.code?.message}>
        {(control) => (
          <Input
            autoComplete="off"
            className="font-mono uppercase"
            placeholder="DROP20"
            aria-required="true"
            {...control}
            {...register('code')}
          />
        )}
      </FormField>
      <FormField label="Percent off" error={errors.discountPercent?.message}>
        {(control) => (
          <Input
            type="number"
            inputMode="numeric"
            min={1}
            max={100}
            step={1}
            aria-required="true"
            {...control}
            {...register('discountPercent')}
          />
        )}
      </FormField>
      <FormField label="Maximum uses" error={errors.maxUsage?.message}>
        {(control) => (
          <>
            <Input
              type="number"
              inputMode="numeric"
              min={1}
              step={1}
              disabled={unlimited}
              {...control}
              {...register('maxUsage')}
            />
            <div className="flex items-center gap-2">
              <input
                id={id('unlimited')}
                type="checkbox"
                className="h-5 w-5 cursor-pointer accent-ink"
                {...register('unlimited')}
              />
              <label htmlFor={id('unlimited')} className="cursor-pointer text-sm">
                Unlimited uses
              </label>
            </div>
          </>
        )}
      </FormField>
      <FormField
        label="Expiry date"
        description="Optional; ends that day (UTC)."
        error={errors.expiresAt?.message}
      >
        {(control) => <Input type="date" {...control} {...register('expiresAt')} />}
      </FormField>
      <Button
        type="submit"
        className="sm:col-span-2 lg:col-span-1 lg:mt-[1.625rem]"
        disabled={create.isPending}
        aria-busy={create.isPending}
      >
        <Plus className="h-4 w-4" aria-hidden="true" />
        Create code
      </Button>
    </form>
  );
}
