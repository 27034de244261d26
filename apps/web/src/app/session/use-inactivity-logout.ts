// Wires the inactivity timer to the page's activity events while someone is signed in. Activity
// is also shared through localStorage (at most every few seconds), so every open tab sees it.
import type { Role } from '@ownvoice/shared';
import { useEffect, useLayoutEffect, useRef } from 'react';
import { ACTIVITY_EVENTS, inactivityLimitFor, startInactivityTimer } from './inactivity-timer';

const LAST_ACTIVITY_KEY = 'ownvoice.lastActivity';
const SHARE_EVERY_MS = 5_000;

function readSharedActivity(): number | null {
  try {
    const value = Number(localStorage.getItem(LAST_ACTIVITY_KEY));
    return Number.isFinite(value) && value > 0 ? value : null;
  } catch {
    return null;
  }
}

function shareActivity(at: number): void {
  try {
    localStorage.setItem(LAST_ACTIVITY_KEY, String(at));
  } catch {
    // Storage blocked: each tab then times out on its own activity.
  }
}

export function useInactivityLogout(role: Role | null, onExpire: () => void): void {
  // The latest callback, so a new function identity does not restart the timer.
  const onExpireRef = useRef(onExpire);
  useLayoutEffect(() => {
    onExpireRef.current = onExpire;
  });

  useEffect(() => {
    if (role === null) return;
    const timer = startInactivityTimer({
      limitMs: inactivityLimitFor(role),
      onExpire: () => onExpireRef.current(),
      lastActivityElsewhere: readSharedActivity,
    });
    let sharedAt = 0;
    const touch = () => {
      timer.touch();
      const now = Date.now();
      if (now - sharedAt >= SHARE_EVERY_MS) {
        sharedAt = now;
        shareActivity(now);
      }
    };
    touch();
    // Capture, so scrolling inside any scrollable element counts, not only the window.
    const options: AddEventListenerOptions = { capture: true, passive: true };
    for (const event of ACTIVITY_EVENTS) window.addEventListener(event, touch, options);
    return () => {
      for (const event of ACTIVITY_EVENTS) window.removeEventListener(event, touch, options);
      timer.stop();
    };
  }, [role]);
}
