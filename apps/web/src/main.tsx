import '@mantine/core/styles.css';
import '@mantine/charts/styles.css';
import '@mantine/notifications/styles.css';
import './app/reduced-motion.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { z } from 'zod';
import { AppProviders } from './app/providers';
import { AppRoutes } from './app/router';

// The server's Content-Security-Policy allows no eval: zod validates without compiling (and
// without probing for eval, which the browser would report as a violation).
z.config({ jitless: true });

const container = document.getElementById('root');
if (!container) throw new Error('index.html lacks the #root element');

createRoot(container).render(
  <StrictMode>
    <AppProviders>
      <AppRoutes />
    </AppProviders>
  </StrictMode>,
);
