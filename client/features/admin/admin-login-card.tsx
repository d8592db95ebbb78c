import { useId, useState, type FormEvent } from 'react';
import { Lock } from 'lucide-react';
import { Button } from '../../components/ui/button';
import { Input } from '../../components/ui/input';
import { Label } from '../../components/ui/label';
import { adminErrorMessage, useAdminLogin } from './use-admin-session';

/** docs/product.md §2 'Admin Access' card; §5: blank or whitespace-only never submitted, field cleared after submit. */
export function AdminLoginCard() {
  const [password, setPassword] = useState('');
  const login = useAdminLogin();
  const fieldId = useId();
  const titleId = useId();
  const blank = password.trim() === '';
  const errorId = useId();
  // The server's refusal stays under the field (announced, linked to it) until the next try.
  const error = login.isError ? adminErrorMessage(login.error) : null;

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    if (blank || login.isPending) return;
    login.mutate(password);
    setPassword('');
  };

  return (
    <section
      aria-labelledby={titleId}
      className="mx-auto w-full max-w-md border-2 border-ink bg-white p-6 shadow-[6px_6px_0_0_#0a0a0a] sm:p-8"
    >
      <div className="mb-6 flex items-center gap-3">
        <span className="inline-flex h-11 w-11 items-center justify-center bg-ink text-paper">
          <Lock className="h-5 w-5" aria-hidden="true" />
        </span>
        <div>
          <h1 id={titleId} className="font-display text-3xl uppercase tracking-wide">
            Admin Access
          </h1>
          <p className="text-sm text-muted">Enter admin password to continue</p>
        </div>
      </div>
      <form onSubmit={onSubmit} className="grid gap-4" noValidate>
        <div className="grid gap-2">
          <Label htmlFor={fieldId}>Password</Label>
          <Input
            id={fieldId}
            type="password"
            name="password"
            autoComplete="current-password"
            required
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? errorId : undefined}
          />
          {error && (
            <p id={errorId} role="alert" className="text-sm font-medium text-red-700">
              {error}
            </p>
          )}
        </div>
        <Button type="submit" disabled={blank || login.isPending} aria-busy={login.isPending}>
          Login
        </Button>
      </form>
    </section>
  );
}
