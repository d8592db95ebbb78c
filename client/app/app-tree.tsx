import { StrictMode, type ReactNode } from 'react';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { RootLayout } from './root-layout';
import { AppRouter } from './router';

/**
 * The whole app, as the server renders it (client/entry-server.tsx) and the browser hydrates it
 * (client/boot.tsx): one tree, so the two can never drift apart. `children` render after the page.
 */
export function AppTree({ client, children }: { client: QueryClient; children?: ReactNode }) {
  return (
    <StrictMode>
      <QueryClientProvider client={client}>
        <RootLayout>
          <AppRouter />
        </RootLayout>
        {children}
      </QueryClientProvider>
    </StrictMode>
  );
}
