// Every route of the app. Public pages render for anyone; signed-in and admin pages sit behind
// their guards; anything else is the 404 page. Paths come from lib/paths, so a link and its route
// cannot drift apart. Only the landing page is in the first download: every other page loads when
// first visited, while the layout shows a loader (see AppLayout).
import { type ComponentType, lazy } from 'react';
import { Navigate, Route, Routes, useSearchParams } from 'react-router';
import { LandingPage } from '../features/info-pages/components/LandingPage';
import { type AuthTab, PATHS, ROUTE_PATTERNS } from '../lib/paths';
import { AdminRoute } from './guards/AdminRoute';
import { PrivateRoute } from './guards/PrivateRoute';
import { AppLayout } from './layout/AppLayout';

/** A page component loaded on first use; pages are named exports, React.lazy wants a default one. */
function lazyPage<K extends string>(load: () => Promise<Record<K, ComponentType>>, name: K) {
  return lazy(() => load().then((module) => ({ default: module[name] })));
}

const AccountPage = lazyPage(() => import('../features/account/components/AccountPage'), 'AccountPage');
const AdminDashboardPage = lazyPage(
  () => import('../features/admin/components/AdminDashboardPage'),
  'AdminDashboardPage',
);
const UserActivityPage = lazyPage(() => import('../features/admin/components/UserActivityPage'), 'UserActivityPage');
const AuthPage = lazyPage(() => import('../features/auth/components/AuthPage'), 'AuthPage');
const ForgotPasswordPage = lazyPage(
  () => import('../features/auth/components/ForgotPasswordPage'),
  'ForgotPasswordPage',
);
const ResetPasswordPage = lazyPage(() => import('../features/auth/components/ResetPasswordPage'), 'ResetPasswordPage');
const VerifyEmailPage = lazyPage(() => import('../features/auth/components/VerifyEmailPage'), 'VerifyEmailPage');
const ConvertPage = lazyPage(() => import('../features/convert/components/ConvertPage'), 'ConvertPage');
const CreateContentPage = lazyPage(
  () => import('../features/create-content/components/CreateContentPage'),
  'CreateContentPage',
);
const DashboardPage = lazyPage(() => import('../features/dashboard/components/DashboardPage'), 'DashboardPage');
const InvitationPage = lazyPage(() => import('../features/invitations/components/InvitationPage'), 'InvitationPage');
const AboutPage = lazyPage(() => import('../features/info-pages/components/AboutPage'), 'AboutPage');
const DownloadPage = lazyPage(() => import('../features/info-pages/components/DownloadPage'), 'DownloadPage');
const HowToPage = lazyPage(() => import('../features/info-pages/components/HowToPage'), 'HowToPage');
const NotFoundPage = lazyPage(() => import('../features/info-pages/components/NotFoundPage'), 'NotFoundPage');
const PrivacyPage = lazyPage(() => import('../features/info-pages/components/PrivacyPage'), 'PrivacyPage');
const WaitlistPage = lazyPage(() => import('../features/info-pages/components/WaitlistPage'), 'WaitlistPage');
const OnboardingChoicePage = lazyPage(
  () => import('../features/onboarding/components/OnboardingChoicePage'),
  'OnboardingChoicePage',
);
const OnboardingPlansPage = lazyPage(
  () => import('../features/onboarding/components/OnboardingPlansPage'),
  'OnboardingPlansPage',
);
const PayLaterPage = lazyPage(() => import('../features/onboarding/components/PayLaterPage'), 'PayLaterPage');
const PaymentCancelledPage = lazyPage(
  () => import('../features/plans/components/PaymentCancelledPage'),
  'PaymentCancelledPage',
);
const PaymentSuccessPage = lazyPage(
  () => import('../features/plans/components/PaymentSuccessPage'),
  'PaymentSuccessPage',
);
const PlansPage = lazyPage(() => import('../features/plans/components/PlansPage'), 'PlansPage');
const CreateVoicePage = lazyPage(() => import('../features/voices/components/CreateVoicePage'), 'CreateVoicePage');
const PublicVoicesPage = lazyPage(() => import('../features/voices/components/PublicVoicesPage'), 'PublicVoicesPage');
const TrainingProgressPage = lazyPage(
  () => import('../features/voices/components/TrainingProgressPage'),
  'TrainingProgressPage',
);
const VoiceDetailsPage = lazyPage(() => import('../features/voices/components/VoiceDetailsPage'), 'VoiceDetailsPage');

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
        <Route path={PATHS.auth} element={<AuthPage />} />
        <Route path={PATHS.forgotPassword} element={<ForgotPasswordPage />} />
        <Route path={PATHS.resetPassword} element={<ResetPasswordPage />} />
        {/* Public like a reset link: the e-mailed link works signed in or not. */}
        <Route path={PATHS.verifyEmail} element={<VerifyEmailPage />} />
        <Route path={PATHS.login} element={<AuthTabRedirect tab="login" />} />
        <Route path={PATHS.register} element={<AuthTabRedirect tab="register" />} />
        <Route path={PATHS.about} element={<AboutPage />} />
        <Route path={PATHS.howTo} element={<HowToPage />} />
        <Route path={PATHS.privacy} element={<PrivacyPage />} />
        <Route path={PATHS.download} element={<DownloadPage />} />
        <Route path={PATHS.waitlist} element={<WaitlistPage />} />
        <Route path={PATHS.onboardingChoice} element={<OnboardingChoicePage />} />
        <Route path={PATHS.onboardingPlans} element={<OnboardingPlansPage />} />
        <Route path={PATHS.onboardingPayLater} element={<PayLaterPage />} />
        {/* Public: the invited person may have no account yet, and no onboarding step applies. */}
        <Route path={ROUTE_PATTERNS.invitation} element={<InvitationPage />} />

        <Route element={<PrivateRoute />}>
          <Route path={PATHS.dashboard} element={<DashboardPage />} />
          <Route path={PATHS.createVoice} element={<CreateVoicePage />} />
          <Route path={PATHS.voices} element={<Navigate to={PATHS.dashboard} replace />} />
          <Route path={ROUTE_PATTERNS.voice} element={<VoiceDetailsPage />} />
          <Route path={ROUTE_PATTERNS.voiceTraining} element={<TrainingProgressPage />} />
          <Route path={PATHS.convert} element={<ConvertPage />} />
          <Route path={PATHS.createContent} element={<CreateContentPage />} />
          <Route path={PATHS.account} element={<AccountPage />} />
          <Route path={PATHS.plans} element={<PlansPage />} />
          <Route path={PATHS.plansSuccess} element={<PaymentSuccessPage />} />
          <Route path={PATHS.plansCancel} element={<PaymentCancelledPage />} />
          <Route path={PATHS.publicVoices} element={<PublicVoicesPage />} />
        </Route>

        <Route element={<AdminRoute />}>
          <Route path={PATHS.admin} element={<AdminDashboardPage />} />
          <Route path={PATHS.adminDashboard} element={<AdminDashboardPage />} />
          <Route path={ROUTE_PATTERNS.userActivity} element={<UserActivityPage />} />
        </Route>

        <Route path="*" element={<NotFoundPage />} />
      </Route>
    </Routes>
  );
}
