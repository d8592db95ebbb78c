import { useRef, useState, type FormEvent } from 'react';
import { Tag } from 'lucide-react';
import type { DiscountResult } from '../../../common/contracts/checkout';
import { Button } from '../../components/ui/button';
import { Input } from '../../components/ui/input';
import { Label } from '../../components/ui/label';
import { toast } from '../../components/ui/use-toast';
import { ApiError } from '../../lib/api-client';
import { validateDiscount } from './checkout-api';

/** docs/product.md §2/§5/§8 discount box: upper-cased input, Enter or 'Apply' validates with the server. */
export function DiscountBox({
  applied,
  onApply,
  onRemove,
}: {
  applied: DiscountResult | null;
  onApply: (discount: DiscountResult) => void;
  onRemove: () => void;
}) {
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [checking, setChecking] = useState(false);
  const inputRef = useRef<HTMLInputElement>(null);

  const apply = async (event: FormEvent) => {
    event.preventDefault();
    const trimmed = code.trim();
    if (!trimmed) {
      setError('Please enter a discount code');
      return;
    }
    setError(null);
    setChecking(true);
    try {
      const result = await validateDiscount(trimmed);
      onApply(result);
      setCode('');
      toast({ title: 'Discount Applied!', description: `${result.discountPercent}% off` });
    } catch (err) {
      // The reason also stays under the field (announced, linked to it), not only in a passing toast.
      if (err instanceof ApiError && err.status < 500) {
        const message = err.serverMessage;
        const reason =
          message && !message.startsWith(`${err.status}:`) ? message : 'This discount code is not valid';
        setError(reason);
        toast({ title: 'Invalid Code', description: reason, variant: 'destructive' });
      } else {
        setError('Failed to validate discount code. Please try again.');
        toast({
          title: 'Error',
          description: 'Failed to validate discount code. Please try again.',
          variant: 'destructive',
        });
      }
    } finally {
      setChecking(false);
      // Keyboard users stay where they were typing, whichever button they used.
      inputRef.current?.focus();
    }
  };

  const remove = () => {
    onRemove();
    toast({ title: 'Discount Removed', description: 'The discount code has been removed.' });
  };

  return (
    <div className="space-y-3">
      <h3 className="text-sm font-semibold">Discount Code</h3>
      <form onSubmit={apply} noValidate className="space-y-1.5">
        <Label htmlFor="discount-code" className="sr-only">
          Discount code
        </Label>
        <div className="flex gap-2">
          <Input
            ref={inputRef}
            id="discount-code"
            value={code}
            onChange={(e) => {
              setCode(e.target.value.toUpperCase());
              if (error) setError(null);
            }}
            placeholder={applied ? 'Use another code' : 'Enter code'}
            autoComplete="off"
            autoCapitalize="characters"
            spellCheck={false}
            aria-invalid={Boolean(error)}
            aria-describedby={error ? 'discount-code-error' : undefined}
            className="font-mono uppercase placeholder:font-sans placeholder:normal-case"
          />
          <Button type="submit" variant="secondary" disabled={checking}>
            {checking ? 'Checking...' : 'Apply'}
          </Button>
        </div>
        {error && (
          <p id="discount-code-error" role="alert" className="text-sm font-medium text-danger">
            {error}
          </p>
        )}
      </form>
      {applied && (
        <div className="flex items-center justify-between gap-3 border border-success/40 bg-success-soft px-4 py-3 text-success">
          <p className="flex items-center gap-2 text-sm font-semibold">
            <Tag className="h-4 w-4" aria-hidden="true" />
            <span>
              {applied.code}{' '}
              <span className="font-normal">· {applied.discountPercent}% discount applied</span>
            </span>
          </p>
          <Button type="button" variant="link" size="sm" className="text-sm" onClick={remove}>
            Remove
          </Button>
        </div>
      )}
    </div>
  );
}
