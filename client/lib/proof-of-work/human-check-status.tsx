import { cn } from '../cn';

/**
 * Says, in a polite live region, that the signup is checking the visitor is human (the proof of work
 * runs while the button shows its pending text). Always rendered, so screen readers announce the change;
 * empty, it takes no room (its negative margin cancels the form's gap-3).
 */
export function HumanCheckStatus({ checking, className }: { checking: boolean; className?: string }) {
  return (
    <p aria-live="polite" className={cn('text-sm empty:-mt-3', className)}>
      {checking ? 'Checking you are human…' : ''}
    </p>
  );
}
