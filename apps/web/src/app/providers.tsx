// App-wide providers: the Mantine theme and toast host, TanStack Query, the router and the
// session (inside the router, because logging out navigates).
import { MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { TOAST_MAX } from '@ownvoice/shared';
import { QueryClientProvider } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { BrowserRouter } from 'react-router';
import { createQueryClient } from '../lib/query-client';
import { SessionProvider } from './session/SessionProvider';
import { cssVariablesResolver, theme } from './theme';

export function AppProviders({ children }: { children: ReactNode }) {
  const [queryClient] = useState(createQueryClient);
  return (
    <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver} defaultColorScheme="light">
      <Notifications limit={TOAST_MAX} position="top-right" zIndex={1000} />
      <QueryClientProvider client={queryClient}>
        {/* Without transitions a location change lands in the same render as the session
            change that caused it, so a guard never sees one without the other. */}
        <BrowserRouter useTransitions={false}>
          <SessionProvider>{children}</SessionProvider>
        </BrowserRouter>
      </QueryClientProvider>
    </MantineProvider>
  );
}
