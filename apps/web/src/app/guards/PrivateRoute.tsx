// Signed-in routes.
import { Navigate, Outlet, useLocation } from 'react-router';
import { FullPageLoader } from '../../components/FullPageLoader';
import { authPath } from '../../lib/paths';
import { useSession } from '../../lib/session/session-context';
import { decidePrivateAccess } from './route-access';

export function PrivateRoute() {
  const { status, user } = useSession();
  const location = useLocation();

  if (status === 'loading') return <FullPageLoader />;
  if (!user) return <Navigate to={authPath('login', location.pathname + location.search)} replace />;

  const decision = decidePrivateAccess(user, location.pathname);
  if (decision.kind === 'redirect') return <Navigate to={decision.to} replace />;
  return <Outlet />;
}
