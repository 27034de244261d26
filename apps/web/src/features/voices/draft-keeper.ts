// The create form's draft survives what leaves the page: a checkout for the resource it ran out
// of (the provider's page is another site) and an accidental reload. It is kept in this browser's
// IndexedDB, which holds the pasted text (up to 2,000,000 characters) and the chosen files
// themselves (structured clones of File), under the owner's id, so only the same person gets it
// back; a created Voice or a cleared form removes it.

/** What is kept of the form: the person's own input, nothing derived. */
export interface KeptDraft {
  ownerId: string;
  name: string;
  text: string;
  files: { file: File; charCount: number | null }[];
}

const DATABASE = 'ownvoice-drafts';
const STORE = 'drafts';
const KEY = 'create-voice';

function openDatabase(): Promise<IDBDatabase | null> {
  if (typeof indexedDB === 'undefined') return Promise.resolve(null);
  return new Promise((resolve) => {
    const request = indexedDB.open(DATABASE, 1);
    request.onupgradeneeded = () => request.result.createObjectStore(STORE);
    request.onsuccess = () => resolve(request.result);
    // A browser that refuses storage (private mode, quota) only loses the keeping, not the form.
    request.onerror = () => resolve(null);
    request.onblocked = () => resolve(null);
  });
}

async function withStore<T>(mode: IDBTransactionMode, use: (store: IDBObjectStore) => IDBRequest): Promise<T | null> {
  const db = await openDatabase();
  if (!db) return null;
  try {
    return await new Promise<T | null>((resolve) => {
      const request = use(db.transaction(STORE, mode).objectStore(STORE));
      request.onsuccess = () => resolve(request.result as T);
      request.onerror = () => resolve(null);
    });
  } finally {
    db.close();
  }
}

/** Keeps the draft, or forgets it when null. */
export async function keepDraft(draft: KeptDraft | null): Promise<void> {
  await withStore('readwrite', (store) => (draft ? store.put(draft, KEY) : store.delete(KEY)));
}

/** The kept draft of this person, or null. */
export async function keptDraftOf(ownerId: string): Promise<KeptDraft | null> {
  const kept = await withStore<KeptDraft | undefined>('readonly', (store) => store.get(KEY));
  return kept && kept.ownerId === ownerId ? kept : null;
}

/** What of the form is worth keeping: nothing when it is empty or nobody's. */
export function draftToKeep(state: {
  ownerId: string | null;
  name: string;
  text: string;
  files: readonly { file: File; charCount: number | null }[];
}): KeptDraft | null {
  if (state.ownerId === null) return null;
  if (state.name === '' && state.text === '' && state.files.length === 0) return null;
  return {
    ownerId: state.ownerId,
    name: state.name,
    text: state.text,
    files: state.files.map(({ file, charCount }) => ({ file, charCount })),
  };
}
