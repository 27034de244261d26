// Parts of the piece that did not come out in the Voice, as the server reported them: the alert
// Convert and Quick mode show, retrying just those parts (free) through the session.
import { RewriteFailuresAlert } from '../../../../components/RewriteFailures';
import { failedPartsOf } from '../../interactive-view';
import type { ScreenProps } from './parts';

export function InteractiveFailures({
  state,
  pending,
  send,
}: Pick<ScreenProps<'section'>, 'state' | 'pending' | 'send'>) {
  return (
    <RewriteFailuresAlert
      {...failedPartsOf(state)}
      onRetry={() => send(state, 'retry_failed_parts')}
      retrying={pending === 'retry_failed_parts'}
      subject="section"
      allFailedNote="No part came out in your Voice, so this draft was not charged; it shows the draft instead. Retry those parts for free, or revise the section."
      shownInstead="the draft"
    />
  );
}
