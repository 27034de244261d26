// Brings the element a link's #anchor names into view once it is on the page (the packs load after
// the billing check, so the browser's own jump may have happened before they existed).
import { useEffect } from 'react';
import { useLocation } from 'react-router';

export function useScrollToHash(id: string, rendered: boolean): void {
  const { hash } = useLocation();
  useEffect(() => {
    if (!rendered || hash !== `#${id}`) return;
    const frame = requestAnimationFrame(() => document.getElementById(id)?.scrollIntoView({ behavior: 'smooth' }));
    return () => cancelAnimationFrame(frame);
  }, [hash, id, rendered]);
}
