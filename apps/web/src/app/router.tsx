// Every route of spec §2. Public pages render for anyone; signed-in and admin pages sit behind
// their guards; anything else is the 404 page.
import { Navigate, Route, Routes, useSearchParams } from 'react-router';
import { AccountPage } from '../features/account/components/AccountPage';
import { AdminDashboardPage } from '../features/admin/components/AdminDashboardPage';
import { UserActivityPage } from '../features/admin/components/UserActivityPage';
import { AuthPage } from '../features/auth/components/AuthPage';
import { ConvertPage } from '../features/convert/components/ConvertPage';
import { CreateContentPage } from '../features/create-content/components/CreateContentPage';
import { DashboardPage } from '../features/dashboard/components/DashboardPage';
import { AboutPage } from '../features/info-pages/components/AboutPage';
import { DownloadPage } from '../features/info-pages/components/DownloadPage';
import { HowToPage } from '../features/info-pages/components/HowToPage';
import { LandingPage } from '../features/info-pages/components/LandingPage';
import { NotFoundPage } from '../features/info-pages/components/NotFoundPage';
import { PrivacyPage } from '../features/info-pages/components/PrivacyPage';
import { WaitlistPage } from '../features/info-pages/components/WaitlistPage';
import { OnboardingChoicePage } from '../features/onboarding/components/OnboardingChoicePage';
import { OnboardingPlansPage } from '../features/onboarding/components/OnboardingPlansPage';
import { PayLaterPage } from '../features/onboarding/components/PayLaterPage';
import { PaymentCancelledPage } from '../features/plans/components/PaymentCancelledPage';
import { PaymentSuccessPage } from '../features/plans/components/PaymentSuccessPage';
import { PlansPage } from '../features/plans/components/PlansPage';
import { CreateVoicePage } from '../features/voices/components/CreateVoicePage';
import { PublicVoicesPage } from '../features/voices/components/PublicVoicesPage';
import { TrainingProgressPage } from '../features/voices/components/TrainingProgressPage';
import { VoiceDetailsPage } from '../features/voices/components/VoiceDetailsPage';
import { type AuthTab, PATHS } from '../lib/paths';
import { AdminRoute } from './guards/AdminRoute';
import { PrivateRoute } from './guards/PrivateRoute';
import { AppLayout } from './layout/AppLayout';

/** /login and /register: the auth screen on the matching tab, keeping any redirect. */
function AuthTabRedirect({ tab }: { tab: AuthTab }) {
  const [params] = useSearchParams();
  const next = new URLSearchParams(params);
  next.set('tab', tab);
  return <Navigate to={`${PATHS.auth}?${next.toString()}`} replace />;
}

export function AppRoutes() {
  return (
    <Routes>
      <Route element={<AppLayout />}>
        <Route index element={<LandingPage />} />
        <Route path="auth" element={<AuthPage />} />
        <Route path="login" element={<AuthTabRedirect tab="login" />} />
        <Route path="register" element={<AuthTabRedirect tab="register" />} />
        <Route path="about" element={<AboutPage />} />
        <Route path="how-to" element={<HowToPage />} />
        <Route path="privacy" element={<PrivacyPage />} />
        <Route path="download" element={<DownloadPage />} />
        <Route path="waitlist" element={<WaitlistPage />} />
        <Route path="onboarding/choice" element={<OnboardingChoicePage />} />
        <Route path="onboarding/plans" element={<OnboardingPlansPage />} />
        <Route path="onboarding/pay-later" element={<PayLaterPage />} />

        <Route element={<PrivateRoute />}>
          <Route path="dashboard" element={<DashboardPage />} />
          <Route path="dashboard/create" element={<CreateVoicePage />} />
          <Route path="dashboard/loras" element={<Navigate to={PATHS.dashboard} replace />} />
          <Route path="dashboard/loras/:id" element={<VoiceDetailsPage />} />
          <Route path="dashboard/loras/:id/training" element={<TrainingProgressPage />} />
          <Route path="dashboard/convert" element={<ConvertPage />} />
          <Route path="dashboard/create-content" element={<CreateContentPage />} />
          <Route path="dashboard/account" element={<AccountPage />} />
          <Route path="dashboard/plans" element={<PlansPage />} />
          <Route path="dashboard/plans/success" element={<PaymentSuccessPage />} />
          <Route path="dashboard/plans/cancel" element={<PaymentCancelledPage />} />
          <Route path="dashboard/public-loras" element={<PublicVoicesPage />} />
        </Route>

        <Route element={<AdminRoute />}>
          <Route path="admin" element={<AdminDashboardPage />} />
          <Route path="admin/dashboard" element={<AdminDashboardPage />} />
          <Route path="admin/users/:id/activity" element={<UserActivityPage />} />
        </Route>

        <Route path="*" element={<NotFoundPage />} />
      </Route>
    </Routes>
  );
}
