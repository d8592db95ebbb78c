import { useState, type FormEvent } from 'react';
import { Mail } from 'lucide-react';
import { Button } from '../../components/ui/button';
import { FormField } from '../../components/ui/form-field';
import { Input } from '../../components/ui/input';
import { EmailInput } from '../../components/forms/email-field';
import { ApiError } from '../../lib/api-client';
import { useFindOrder } from './orders-api';

/**
 * "Find my order": order number + e-mail mails the order page's link again. The shop answers the same
 * whether or not the pair matched (docs/product.md §2.13), and so does this form.
 */
export function FindOrderForm({ initialOrderNumber = '' }: { initialOrderNumber?: string }) {
  const [orderNumber, setOrderNumber] = useState(initialOrderNumber);
  const [email, setEmail] = useState('');
  const find = useFindOrder();
  const error = find.error instanceof ApiError ? find.error.serverMessage : find.error ? 'Something went wrong. Please try again.' : null;

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    find.mutate({ orderNumber: orderNumber.trim(), email: email.trim() });
  };

  return (
    <section aria-labelledby="find-order-heading" className="border border-hairline bg-surface p-5 sm:p-6">
      <h2 id="find-order-heading" className="type-title">
        Find my order
      </h2>
      <p className="mt-2 text-sm text-muted">
        Enter your order number (it is in your confirmation e-mail, like FIFTY-7K3Q-9XZ2) and the e-mail address you
        ordered with. We'll e-mail you the link to your order page.
      </p>
      <form onSubmit={onSubmit} className="mt-5 grid gap-4 sm:grid-cols-2">
        <FormField label="Order number" required>
          {(control) => (
            <Input
              {...control}
              name="orderNumber"
              autoComplete="off"
              autoCapitalize="characters"
              spellCheck={false}
              required
              maxLength={40}
              placeholder="FIFTY-XXXX-XXXX"
              value={orderNumber}
              onChange={(e) => setOrderNumber(e.target.value)}
              className="font-mono uppercase"
            />
          )}
        </FormField>
        <FormField label="E-mail address" required>
          {(control) => (
            <EmailInput
              {...control}
              required
              placeholder="you@example.com"
              value={email}
              onChange={(e) => setEmail(e.target.value)}
            />
          )}
        </FormField>
        <div className="sm:col-span-2">
          <Button type="submit" size="lg" className="w-full sm:w-auto" disabled={find.isPending}>
            <Mail className="mr-2 h-4 w-4" aria-hidden="true" />
            {find.isPending ? 'Sending…' : 'E-mail me the link'}
          </Button>
        </div>
      </form>
      <div aria-live="polite" className="mt-4 empty:hidden">
        {find.data && (
          <p role="status" className="border-l-2 border-success bg-success-soft px-4 py-3 text-sm font-medium text-success">
            {find.data.message}
          </p>
        )}
      </div>
      {error && (
        <p role="alert" className="mt-4 text-sm font-medium text-danger">
          {error}
        </p>
      )}
    </section>
  );
}
