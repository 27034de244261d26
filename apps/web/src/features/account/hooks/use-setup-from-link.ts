// /dashboard/account?setup=two-factor opens two-factor setup at once: where an accepted admin
// invitation lands, since admin functions need two-factor. The parameter is removed as it is
// read, so a reload or going back does not open the dialog again.
import { useEffect, useRef } from 'react';
import { useSearchParams } from 'react-router';
import { ACCOUNT_SETUP_PARAM, TWO_FACTOR_SETUP } from '../../../lib/paths';

export function useSetupFromLink(openSetup: () => void, alreadyEnabled: boolean): void {
  const [params, setParams] = useSearchParams();
  const asked = params.get(ACCOUNT_SETUP_PARAM) === TWO_FACTOR_SETUP;
  const handled = useRef(false);

  useEffect(() => {
    if (!asked || handled.current) return;
    handled.current = true;
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        next.delete(ACCOUNT_SETUP_PARAM);
        return next;
      },
      { replace: true },
    );
    if (!alreadyEnabled) openSetup();
  }, [asked, alreadyEnabled, openSetup, setParams]);
}
