import { useId, useState, type FormEvent } from 'react';
import { Button } from '../../components/ui/button';
import { toast } from '../../components/ui/use-toast';
import { HumanCheckStatus } from '../../lib/proof-of-work/human-check-status';
import { markNewsletterSeen } from './seen-flag';
import { knownSubscribeFailure, useSubscribe } from './use-subscribe';
import { EmailInput } from '../../components/forms/email-field';

/** Home 'Join the Community' signup (docs/product.md §2, §4, §8). */
export function NewsletterSection() {
  const subscribe = useSubscribe();
  const [email, setEmail] = useState('');
  const inputId = useId();
  const headingId = useId();

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const value = email.trim();
    if (!value || subscribe.isPending) return;
    subscribe.mutate(value, {
      onSuccess: () => {
        setEmail('');
        markNewsletterSeen();
        toast({ title: 'Successfully subscribed!', description: 'Thank you for joining the revolution.' });
      },
      onError: (err) => {
        toast({
          title: 'Subscription failed',
          description: knownSubscribeFailure(err) ?? 'Please try again later.',
          variant: 'destructive',
        });
      },
    });
  };

  return (
    <section id="newsletter" aria-labelledby={headingId} className="scroll-mt-20 border-t border-hairline bg-bone text-ink">
      <div className="mx-auto grid max-w-7xl gap-8 px-4 py-16 md:py-24 md:px-6 lg:grid-cols-2 lg:items-end">
        <div>
          <p className="type-eyebrow text-muted">Newsletter</p>
          <h2 id={headingId} className="type-heading mt-2">
            Join the Community
          </h2>
          <p className="mt-4 max-w-lg text-base text-muted">
            10% off your first order, your code by e-mail. For a drop, tap Notify me on its page: we mail you
            when its line opens. No spam — just the next 50 pieces.
          </p>
        </div>
        <form onSubmit={submit} className="flex flex-col gap-3">
          <label htmlFor={inputId} className="text-sm font-medium">
            Email address
          </label>
          <div className="flex flex-col gap-3 sm:flex-row">
            <EmailInput
              id={inputId}
              required
              placeholder="you@example.com"
              value={email}
              onChange={(e) => setEmail(e.target.value)}
              className="h-12 px-4 sm:flex-1"
            />
            <Button type="submit" size="lg" disabled={subscribe.isPending} className="h-12">
              {subscribe.isPending ? 'Subscribing...' : 'Subscribe'}
            </Button>
          </div>
          <HumanCheckStatus checking={subscribe.checking} />
          <p className="text-sm text-muted">Unsubscribe any time. We never share your address.</p>
        </form>
      </div>
    </section>
  );
}
