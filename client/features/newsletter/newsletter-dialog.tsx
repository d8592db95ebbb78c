import { useId, useState, type FormEvent } from 'react';
import { Button } from '../../components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
} from '../../components/ui/dialog';
import { EmailInput } from '../../components/forms/email-field';
import { Label } from '../../components/ui/label';
import { toast } from '../../components/ui/use-toast';
import { useShopSettings } from '../../lib/use-shop-settings';
import { HumanCheckStatus } from '../../lib/proof-of-work/human-check-status';
import { knownSubscribeFailure, useSubscribe } from './use-subscribe';

/** The popup itself (lazy chunk). Any close calls onClose, which stores the seen flag. */
export default function NewsletterDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { shopName } = useShopSettings();
  const subscribe = useSubscribe();
  const [email, setEmail] = useState('');
  const inputId = useId();

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const value = email.trim();
    if (!value || subscribe.isPending) return;
    subscribe.mutate(value, {
      onSuccess: () => {
        setEmail('');
        toast({
          title: `Welcome to ${shopName}!`,
          description: 'Check your email for your 10% off discount code.',
        });
        onClose();
      },
      onError: (err) => {
        toast({
          title: 'Subscription Failed',
          description: knownSubscribeFailure(err) ?? 'Something went wrong. Please try again.',
          variant: 'destructive',
        });
      },
    });
  };

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (!next) onClose();
      }}
    >
      <DialogContent
        closeLabel="Close"
        className="max-w-md gap-0 overflow-hidden p-0 [&>button:last-child]:text-paper [&>button:last-child]:hover:bg-white/10"
      >
        <div className="bg-ink px-6 pb-6 pt-8 text-paper">
          <p className="type-eyebrow text-neutral-400">The list</p>
          <p aria-hidden="true" className="mt-2 font-display text-6xl uppercase leading-none text-paper">
            10% off
          </p>
        </div>
        <div className="flex flex-col gap-4 p-6">
          <DialogHeader>
            <DialogTitle className="text-3xl leading-tight">Get 10% off your first order</DialogTitle>
            <DialogDescription className="text-base">
              Join the {shopName} list: 50 pieces per design, never remade.
              Your code arrives by e-mail.
            </DialogDescription>
          </DialogHeader>
          <form onSubmit={submit} className="flex flex-col gap-3">
            <Label htmlFor={inputId}>Email address</Label>
            <EmailInput
              id={inputId}
              required
              placeholder="you@example.com"
              value={email}
              onChange={(e) => setEmail(e.target.value)}
            />
            <Button
              type="submit"
              variant="default"
              size="lg"
              disabled={subscribe.isPending}
              className="w-full"
            >
              {subscribe.isPending ? 'Joining...' : 'Claim 10% Off'}
            </Button>
            <HumanCheckStatus checking={subscribe.checking} className="text-center" />
            <Button type="button" variant="link" onClick={onClose} className="self-center text-muted">
              No thanks
            </Button>
          </form>
        </div>
      </DialogContent>
    </Dialog>
  );
}
