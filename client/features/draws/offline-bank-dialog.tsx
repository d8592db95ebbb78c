import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
} from '../../components/ui/dialog';
import { Button } from '../../components/ui/button';

/**
 * The offline test gateway's stand-in for the bank's 3-D Secure page (Stripe's test page has the same two
 * buttons). Closing it abandons the step: nothing is held.
 */
export function OfflineBankDialog({
  open,
  busy,
  onAnswer,
  onAbandon,
}: {
  open: boolean;
  busy: boolean;
  onAnswer: (outcome: 'complete' | 'fail') => void;
  onAbandon: () => void;
}) {
  return (
    <Dialog open={open} onOpenChange={(next) => !next && !busy && onAbandon()}>
      <DialogContent closeLabel="Cancel the bank check">
        <DialogHeader>
          <DialogTitle>Confirm with your bank</DialogTitle>
          <DialogDescription>
            Your bank asks you to confirm this card for the draw (3-D Secure). This test shop plays the bank:
            choose how it answers. Nothing is charged.
          </DialogDescription>
        </DialogHeader>
        <div className="grid gap-3 sm:grid-cols-2">
          <Button type="button" size="lg" disabled={busy} onClick={() => onAnswer('complete')}>
            Complete authentication
          </Button>
          <Button type="button" size="lg" variant="outline" disabled={busy} onClick={() => onAnswer('fail')}>
            Fail authentication
          </Button>
        </div>
      </DialogContent>
    </Dialog>
  );
}
