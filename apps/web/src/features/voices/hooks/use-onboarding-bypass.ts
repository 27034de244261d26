// Acts on the admin bypass link when Voice creation opens with it: finishes onboarding for an
// admin (the session then holds the updated user), then drops the query from the address.
import { useEffect, useRef } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { errorMessage } from '../../../lib/api-error';
import { useSession } from '../../../lib/session/session-context';
import { notifyError, notifySuccess } from '../../../lib/toast';
import { bypassAction, withoutBypass } from '../onboarding-bypass';

export function useOnboardingBypass() {
  const { user, advanceOnboarding } = useSession();
  const location = useLocation();
  const navigate = useNavigate();
  const started = useRef(false);
  const action = user ? bypassAction(location.search, user) : null;

  useEffect(() => {
    if (action === null || started.current) return;
    started.current = true;
    const dropQuery = () => {
      started.current = false;
      navigate({ pathname: location.pathname, search: withoutBypass(location.search) }, { replace: true });
    };
    if (action === 'drop') {
      dropQuery();
      return;
    }
    advanceOnboarding('tutorial_complete')
      .then(() => notifySuccess('Onboarding is skipped: everything is open to you.', 'Onboarding bypassed'))
      .catch((error: unknown) => notifyError(errorMessage(error, 'Failed to bypass onboarding. Please try again.')))
      .finally(dropQuery);
  }, [action, advanceOnboarding, navigate, location.pathname, location.search]);
}
