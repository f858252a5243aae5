import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import './global.css';
import { MantineProvider } from '@mantine/core';
import { QueryClientProvider } from '@tanstack/react-query';
import { useState } from 'react';
import { BrowserRouter } from 'react-router';
import { createQueryClient } from '../lib/query-client';
import { SessionProvider } from '../lib/session';
import { Toasts } from '../components/Toasts';
import { AppRoutes } from './routes';
import { theme } from './theme';

export function App() {
  const [queryClient] = useState(createQueryClient);
  return (
    <MantineProvider theme={theme}>
      <Toasts />
      <QueryClientProvider client={queryClient}>
        <BrowserRouter>
          <SessionProvider>
            <AppRoutes />
          </SessionProvider>
        </BrowserRouter>
      </QueryClientProvider>
    </MantineProvider>
  );
}
