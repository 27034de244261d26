// What a person typed and got back on a page where they write (Convert, Create), kept in this
// tab's sessionStorage under their id, so the checkout round trip for a top-up (the provider's
// page is another site) and an accidental reload bring it back. Tab-scoped on purpose: closing the
// tab or signing out forgets it, so the next person at a shared computer finds nothing. What comes
// back is checked against the page's schema; anything that does not pass is dropped.
import { useEffect, useRef, useState } from 'react';
import type { ZodType } from 'zod';
import { browserSessionStore, type SessionStore } from '../billing/session-store';
import { readToken } from '../token-storage';
import { readStoredJson, writeStoredJson } from './stored-json';

/** The pages that keep what was typed on them. */
export const KEPT_PAGES = ['convert', 'create'] as const;
export type KeptPage = (typeof KEPT_PAGES)[number];

export const keptWorkKey = (page: KeptPage, userId: string): string => `ownvoice.kept.${page}.${userId}`;

/** The kept work of this page and person, or null (nothing kept, or it did not pass). */
export function readKeptWork<T>(
  page: KeptPage,
  userId: string,
  schema: ZodType<T>,
  store: SessionStore | null = browserSessionStore(),
): T | null {
  return readStoredJson(store, keptWorkKey(page, userId), schema);
}

/** Keeps the work, or forgets it when null. A full or refused storage only loses the keeping. */
export function writeKeptWork<T>(
  page: KeptPage,
  userId: string,
  work: T | null,
  store: SessionStore | null = browserSessionStore(),
): void {
  writeStoredJson(store, keptWorkKey(page, userId), work, 'what was typed on this page');
}

/** Forgets what this person kept on every page of this tab (signing out). */
export function forgetKeptWork(userId: string, store: SessionStore | null = browserSessionStore()): void {
  for (const page of KEPT_PAGES) writeKeptWork(page, userId, null, store);
}

/**
 * Keeps what `read` returns a moment after any of `changed` changes (a fixed list), and at once when the page is hidden
 * (leaving for the checkout, a reload) or the screen unmounts, so the last keystrokes are not lost.
 */
export function useKeptWork<T>(
  page: KeptPage,
  userId: string,
  read: () => T | null,
  changed: readonly unknown[],
): void {
  const readRef = useRef(read);
  useEffect(() => {
    readRef.current = read;
  }, [read]);

  useEffect(() => {
    // Signing out unmounts the page after the token is gone: nothing is kept for a signed-out tab.
    const keep = () => {
      if (readToken() !== null) writeKeptWork(page, userId, readRef.current());
    };
    window.addEventListener('pagehide', keep);
    return () => {
      window.removeEventListener('pagehide', keep);
      keep();
    };
  }, [page, userId]);

  // `changed` is the signal to keep again.
  useEffect(() => {
    const timer = setTimeout(() => writeKeptWork(page, userId, readRef.current()), 300);
    return () => clearTimeout(timer);
  }, [page, userId, ...changed]);
}

/** What this page kept for this person, read once when the page opens. */
export function useKeptWorkOnOpen<T>(page: KeptPage, userId: string, schema: ZodType<T>): T | null {
  const [kept] = useState(() => readKeptWork(page, userId, schema));
  return kept;
}
