import { IconPencil } from '@tabler/icons-react';
import { ComingSoon } from '../../../components/ComingSoon';
import { Page } from '../../../components/Page';

/** /dashboard/create-content: drafting new content in a Voice, filled by a later release. */
export function CreateContentPage() {
  return (
    <Page title="Create" description="Draft new content from a prompt, written in your Voice.">
      <ComingSoon title="Create is almost here" icon={<IconPencil size={32} />}>
        Describe what you need: a blog post, an e-mail, ad copy or a speech. Quick mode writes straight away;
        Interactive mode asks a few questions first. Either way the draft is rewritten in your Voice.
      </ComingSoon>
    </Page>
  );
}
