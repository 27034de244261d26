// Counts down, then goes back to the page a pack was bought from; the person may go at once or
// stay instead.
import { useCallback, useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { clearReturnTo } from '../../../lib/billing/return-to';
import { CONTINUE_AFTER_SECONDS } from '../success';

export function useAutoContinue(target: string | null) {
  const navigate = useNavigate();
  const [secondsLeft, setSecondsLeft] = useState(CONTINUE_AFTER_SECONDS);
  const [stayed, setStayed] = useState(false);

  const go = useCallback(() => {
    if (target === null) return;
    clearReturnTo();
    navigate(target);
  }, [target, navigate]);

  useEffect(() => {
    if (target === null || stayed) return;
    if (secondsLeft <= 0) {
      go();
      return;
    }
    const timer = setTimeout(() => setSecondsLeft((s) => s - 1), 1000);
    return () => clearTimeout(timer);
  }, [target, stayed, secondsLeft, go]);

  const stay = useCallback(() => {
    setStayed(true);
    clearReturnTo();
  }, []);

  return { counting: target !== null && !stayed, secondsLeft, go, stay };
}
