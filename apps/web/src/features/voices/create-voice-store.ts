// The create form's draft and its submission, kept outside React: the form navigates to the
// "Creating Voice..." placeholder as soon as it submits, and comes back with everything kept when
// the upload fails. File counts arrive here too, so a count that lands after a navigation is kept.
// The person's input is also kept in the browser (draft-keeper.ts), so a checkout round trip or a
// reload brings the form back.
import { filterVoiceNameInput, MAX_PASTED_CHARS, stripNul, type Voice, voiceNameSchema } from '@ownvoice/shared';
import { ApiError } from '../../lib/api-error';
import { createStore, useStore } from '../../lib/create-store';
import { handleInsufficientLimit } from '../../lib/purchase-prompt';
import { countCharacters, createVoice } from './api';
import { createErrorMessage } from './create-error';
import { draftToKeep, keepDraft, keptDraftOf } from './draft-keeper';
import { classifyCountFailure, type FileFailure, failureMessages, screenFiles } from './file-selection';
import { newTempVoiceId } from './temp-voice-id';

/** A chosen file; charCount is null while the server counts. */
export interface SelectedFile {
  id: string;
  file: File;
  charCount: number | null;
}

export type Submission =
  | { state: 'idle' }
  | { state: 'submitting'; tempId: string }
  | { state: 'created'; tempId: string; voiceId: string }
  | { state: 'failed'; tempId: string };

export interface CreateVoiceState {
  /** Whose draft this is: another user signing in on this tab must not see it. */
  ownerId: string | null;
  name: string;
  text: string;
  files: SelectedFile[];
  /** The shared messages for files that were not added. */
  fileErrors: string[];
  /** Set when pasted text was cut at the 2,000,000 limit. */
  textTruncated: boolean;
  /** The last upload's failure, shown on the restored form. */
  createError: string | null;
  submission: Submission;
}

const EMPTY: CreateVoiceState = {
  ownerId: null,
  name: '',
  text: '',
  files: [],
  fileErrors: [],
  textTruncated: false,
  createError: null,
  submission: { state: 'idle' },
};

const store = createStore<CreateVoiceState>(EMPTY);

// Writes the input a moment after it changes; an empty form deletes the kept draft only once this
// page has kept something itself, so arriving at an empty form never wipes one about to be restored.
let keptSomething = false;
let keepTimer: ReturnType<typeof setTimeout> | undefined;
store.subscribe(() => {
  const draft = draftToKeep(store.get());
  if (draft === null && !keptSomething) return;
  keptSomething = draft !== null;
  clearTimeout(keepTimer);
  keepTimer = setTimeout(() => void keepDraft(draftToKeep(store.get())), 300);
});

/** The draft of this user; a draft left by someone else reads as empty until it is claimed. */
export function useCreateVoiceState(userId: string): CreateVoiceState {
  const state = useStore(store);
  return state.ownerId === userId ? state : { ...EMPTY, ownerId: userId };
}

/** The draft as it stands, for code outside React. */
export const readCreateVoiceState = (): CreateVoiceState => store.get();

/** Makes the draft this user's, starting afresh when it was someone else's. */
export function claimDraft(userId: string): void {
  store.set((current) => (current.ownerId === userId ? current : { ...EMPTY, ownerId: userId }));
  void restoreKeptDraft(userId);
}

/** Brings back this person's kept draft into an empty form (anything typed meanwhile wins). */
async function restoreKeptDraft(userId: string): Promise<void> {
  const kept = await keptDraftOf(userId);
  const current = store.get();
  if (!kept || current.ownerId !== userId || draftToKeep(current) !== null) return;
  const files: SelectedFile[] = kept.files.map(({ file, charCount }) => {
    nextFileId += 1;
    return { id: `file-${nextFileId}`, file, charCount };
  });
  patch({ name: kept.name, text: kept.text, files });
  const uncounted = files.filter((f) => f.charCount === null);
  if (uncounted.length > 0) void countBatch(uncounted, []);
}

export function clearDraft(): void {
  store.set((current) => ({ ...EMPTY, ownerId: current.ownerId }));
}

const patch = (changes: Partial<CreateVoiceState>) => store.set((current) => ({ ...current, ...changes }));

export function setName(value: string): void {
  patch({ name: filterVoiceNameInput(value) });
}

/** NUL characters removed and the text cut at the pasted-text limit. */
export function setText(value: string): void {
  const clean = stripNul(value);
  patch({ text: clean.slice(0, MAX_PASTED_CHARS), textTruncated: clean.length > MAX_PASTED_CHARS });
}

export function removeFile(id: string): void {
  store.set((current) => ({ ...current, files: current.files.filter((f) => f.id !== id) }));
}

export function dismissFileErrors(): void {
  patch({ fileErrors: [] });
}

export function dismissCreateError(): void {
  patch({ createError: null });
}

let nextFileId = 0;

/**
 * Adds the files the rules accept and asks the server to count each, one after another. Returns the
 * names left out for passing the 50 MB total, for the EGAD! modal; other refusals land in
 * fileErrors once every count of the batch has answered.
 */
export function addFiles(incoming: readonly File[]): string[] {
  const current = store.get();
  const screening = screenFiles(
    current.files.map((f) => f.file),
    incoming,
  );
  const added: SelectedFile[] = screening.accepted.map((file) => {
    nextFileId += 1;
    return { id: `file-${nextFileId}`, file, charCount: null };
  });
  patch({ files: [...current.files, ...added], fileErrors: failureMessages(screening.failures) });
  void countBatch(added, screening.failures);
  return screening.overTotal.map((f) => f.name);
}

/**
 * Counts go one at a time, batches included: the server takes few uploads from one account at
 * once (2 by default), and the Voice's own upload must still find a slot.
 */
let countsDone: Promise<unknown> = Promise.resolve();
function oneAtATime<T>(task: () => Promise<T>): Promise<T> {
  const run = countsDone.then(task, task);
  countsDone = run.catch(() => undefined);
  return run;
}

/** Waits what the server asks (at most 10 s) and tries again, up to three times, when it is busy. */
async function countWhenFree(file: File): Promise<{ characters: number }> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await countCharacters(file);
    } catch (error) {
      if (!(error instanceof ApiError) || error.status !== 429 || attempt >= 3) throw error;
      const seconds = Number(error.details.retryAfterSeconds) || 1;
      await new Promise((resolve) => setTimeout(resolve, Math.min(seconds, 10) * 1000));
    }
  }
}

async function countBatch(added: readonly SelectedFile[], earlier: readonly FileFailure[]): Promise<void> {
  const failures: FileFailure[] = [...earlier];
  await Promise.all(
    added.map(async (entry) => {
      try {
        const { characters } = await oneAtATime(() => countWhenFree(entry.file));
        store.set((s) => ({
          ...s,
          files: s.files.map((f) => (f.id === entry.id ? { ...f, charCount: characters } : f)),
        }));
      } catch (error) {
        failures.push(classifyCountFailure(entry.file.name, error));
        removeFile(entry.id);
      }
    }),
  );
  if (failures.length > earlier.length) patch({ fileErrors: failureMessages(failures) });
}

export interface CreateHooks {
  /** Runs after the server accepted the Voice (refresh the list, the user, onboarding). */
  onCreated: (voice: Voice) => void;
}

/**
 * Sends the draft. Returns the temporary id to show the placeholder under at once (null when the
 * name is blank); the outcome lands in `submission`, and on failure the draft stays as it was
 * with the error beside it.
 */
export function submitDraft({ onCreated }: CreateHooks): string | null {
  const { name, text, files } = store.get();
  const parsedName = voiceNameSchema.safeParse(name);
  if (!parsedName.success) return null;
  const tempId = newTempVoiceId();
  patch({ submission: { state: 'submitting', tempId }, createError: null, fileErrors: [] });
  createVoice({ name: parsedName.data, text, files: files.map((f) => f.file) }).then(
    (voice) => {
      store.set((s) => ({
        ...EMPTY,
        ownerId: s.ownerId,
        submission: { state: 'created', tempId, voiceId: voice._id },
      }));
      onCreated(voice);
    },
    (error: unknown) => {
      // A resource that ran out opens the purchase modal; the form comes back as it was.
      const handled = handleInsufficientLimit(error);
      patch({ submission: { state: 'failed', tempId }, createError: handled ? null : createErrorMessage(error) });
    },
  );
  return tempId;
}

/** The placeholder page saw the outcome of its submission and moved on. */
export function acknowledgeSubmission(tempId: string): void {
  store.set((s) =>
    s.submission.state !== 'idle' && s.submission.tempId === tempId ? { ...s, submission: { state: 'idle' } } : s,
  );
}
