// Every page shares the beta banner, the navbar and the footer around its own content, and the
// one purchase modal any feature may raise.
import { Box } from '@mantine/core';
import { Outlet } from 'react-router';
import { PurchaseModal } from '../purchase/PurchaseModal';
import { BetaBanner } from './BetaBanner';
import { ModelNotice } from './ModelNotice';
import { ScrollToTop } from './ScrollToTop';
import { SiteFooter } from './SiteFooter';
import { SiteHeader } from './SiteHeader';

export function AppLayout() {
  return (
    <Box mih="100dvh" style={{ display: 'flex', flexDirection: 'column' }}>
      <ScrollToTop />
      <BetaBanner />
      <ModelNotice />
      <SiteHeader />
      <Box component="main" id="main" style={{ flex: 1 }}>
        <Outlet />
      </Box>
      <SiteFooter />
      <PurchaseModal />
    </Box>
  );
}
