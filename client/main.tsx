import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { QueryClientProvider } from '@tanstack/react-query';
import { queryClient } from './lib/query-client';
import { RootLayout } from './app/root-layout';
import { AppRouter, preloadRoute } from './app/router';
import './styles.css';

void preloadRoute(window.location.pathname).then(() =>
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <QueryClientProvider client={queryClient}>
        <RootLayout>
          <AppRouter />
        </RootLayout>
      </QueryClientProvider>
    </StrictMode>,
  ),
);
