// The e-mail notices card: each switch saves at once. The card shows the choice made while it is
// saved (only the latest goes out once the one on its way is answered), then "saved"; a failure
// puts the switches back as the server has them and says so.
import { EMAIL_MESSAGES } from '@ownvoice/shared';
import { useCallback, useState } from 'react';
import { useCurrentUser, useSession } from '../../../lib/session/session-context';
import { saveMutedNotices } from '../api';
import { latestOnly, mutedAfter, NOTICE_MESSAGES, type NoticeSwitch, noticeSwitches } from '../notice-switches';

export type NoticeSaveState =
  | { kind: 'idle' }
  | { kind: 'saving' }
  | { kind: 'saved'; message: string }
  | { kind: 'failed'; message: string };

export function useNoticeSettings() {
  const user = useCurrentUser();
  const { refresh } = useSession();
  // The choice shown while it is saved; null shows what the server has.
  const [chosen, setChosen] = useState<string[] | null>(null);
  const [state, setState] = useState<NoticeSaveState>({ kind: 'idle' });
  const [save] = useState(() => latestOnly(saveMutedNotices));
  const muted = chosen ?? user.mutedNotices;

  const change = useCallback(
    async (key: string, on: boolean) => {
      const next = mutedAfter(muted, key, on);
      setChosen(next);
      setState({ kind: 'saving' });
      try {
        await save(next);
        setState({ kind: 'saved', message: EMAIL_MESSAGES.noticesSaved });
      } catch {
        setChosen(null);
        setState({ kind: 'failed', message: NOTICE_MESSAGES.saveFailed });
      }
      await refresh().catch(() => undefined);
    },
    [muted, save, refresh],
  );

  const switches: NoticeSwitch[] = noticeSwitches(muted);
  return { switches, state, change, clearFailure: () => setState({ kind: 'idle' }) };
}
