import { useEffect, useState } from 'react';

/** Cycles through items every intervalMs (the landing headline's content types). */
export function useRotatingItem<T>(items: readonly T[], intervalMs: number): T | undefined {
  const [index, setIndex] = useState(0);
  useEffect(() => {
    if (items.length < 2) return;
    const handle = setInterval(() => setIndex((current) => (current + 1) % items.length), intervalMs);
    return () => clearInterval(handle);
  }, [items.length, intervalMs]);
  return items[index];
}
