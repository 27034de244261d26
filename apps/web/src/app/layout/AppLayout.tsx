// Every page shares the skip link, the beta banner (and, signed in, the notice of an unconfirmed
// address), the navbar and the footer around its own content, and the one purchase modal (and the
// edit pass's proofread question) any feature may raise. Pages load lazily: until a page's code arrives the
// header and footer stay and a loader fills the page's place.
import { Box } from '@mantine/core';
import { Suspense } from 'react';
import { Outlet } from 'react-router';
import { FullPageLoader } from '../../components/FullPageLoader';
import { ProofreadPlanDialog } from '../purchase/ProofreadPlanDialog';
import { PurchaseModal } from '../purchase/PurchaseModal';
import { BetaBanner } from './BetaBanner';
import { EmailConfirmNotice } from './EmailConfirmNotice';
import { ModelNotice } from './ModelNotice';
import { ScrollToTop } from './ScrollToTop';
import { SiteFooter } from './SiteFooter';
import { SiteHeader } from './SiteHeader';
import { MAIN_ID, SkipLink } from './SkipLink';

export function AppLayout() {
  return (
    <Box mih="100dvh" style={{ display: 'flex', flexDirection: 'column' }}>
      <ScrollToTop />
      <SkipLink />
      <BetaBanner />
      <ModelNotice />
      <EmailConfirmNotice />
      <SiteHeader />
      {/* Focusable from script for the skip link; no ring, since the region itself is not a control. */}
      <Box component="main" id={MAIN_ID} tabIndex={-1} style={{ flex: 1, outline: 'none' }}>
        <Suspense fallback={<FullPageLoader />}>
          <Outlet />
        </Suspense>
      </Box>
      <SiteFooter />
      <PurchaseModal />
      <ProofreadPlanDialog />
    </Box>
  );
}
