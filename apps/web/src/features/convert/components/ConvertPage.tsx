import { IconRefresh } from '@tabler/icons-react';
import { ComingSoon } from '../../../components/ComingSoon';
import { Page } from '../../../components/Page';

/** /dashboard/convert: rewriting text in a Voice, filled by a later release. */
export function ConvertPage() {
  return (
    <Page title="Convert" description="Rewrite any text in the style of one of your Voices.">
      <ComingSoon title="Convert is almost here" icon={<IconRefresh size={32} />}>
        Paste generic text, pick an awake Voice and watch the text come back in your style, chunk by chunk, with an
        optional proofreading pass that checks every chunk against the original.
      </ComingSoon>
    </Page>
  );
}
