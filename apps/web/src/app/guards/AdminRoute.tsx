// Admin-only routes: the user behind the stored token must be an
// admin or super admin; everyone else signed in goes to their dashboard.
import { isAdminRole } from '@ownvoice/shared';
import { Navigate, Outlet, useLocation } from 'react-router';
import { FullPageLoader } from '../../components/FullPageLoader';
import { authPath, PATHS } from '../../lib/paths';
import { useSession } from '../../lib/session/session-context';

export function AdminRoute() {
  const { status, user } = useSession();
  const location = useLocation();

  if (status === 'loading') return <FullPageLoader />;
  if (!user) return <Navigate to={authPath('login', location.pathname + location.search)} replace />;
  if (!isAdminRole(user.role)) return <Navigate to={PATHS.dashboard} replace />;
  return <Outlet />;
}
