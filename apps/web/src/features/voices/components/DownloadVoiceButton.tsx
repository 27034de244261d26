// The Voice's page: take it home, as its package (.zip: the adapter for llama.cpp, Ollama and
// PEFT, with a README saying how to use each) or as one model file with the Voice merged into its
// base model (.gguf, for apps that cannot load an adapter). The model file is built when asked
// for, so the button says so while it is.
import { Button, Loader, Menu, Text } from '@mantine/core';
import type { Voice } from '@ownvoice/shared';
import { IconChevronDown, IconDownload, IconFileZip, IconStack2 } from '@tabler/icons-react';
import { useDownloadVoice } from '../hooks/use-voice-package';

const BUSY_LABEL = { package: 'Downloading…', 'merged-model': 'Building the model file…' } as const;

export function DownloadVoiceButton({ voice }: { voice: Pick<Voice, '_id' | 'baseModel'> }) {
  const { download, pending } = useDownloadVoice(voice._id);
  // Merged into this server's base model only: a Voice trained on another has no base to merge into here.
  const mergeable = voice.baseModel?.onThisServer !== 'other';
  return (
    <Menu
      position="bottom-end"
      // Inside the page's landmarks, and no focus placeholder among the items: axe finds neither then.
      withinPortal={false}
      withInitialFocusPlaceholder={false}
      shadow="md"
      width={320}
      disabled={pending !== undefined}
    >
      <Menu.Target>
        <Button
          variant="light"
          leftSection={pending ? <Loader size={16} type="dots" /> : <IconDownload size={18} />}
          rightSection={pending ? undefined : <IconChevronDown size={16} />}
          disabled={pending !== undefined}
          aria-busy={pending !== undefined}
          data-testid="download-voice"
        >
          {pending ? BUSY_LABEL[pending] : 'Download Voice'}
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Item leftSection={<IconFileZip size={18} />} onClick={() => download('package')}>
          <Text size="sm" fw={500}>
            Voice package (.zip)
          </Text>
          <Text size="xs" c="dimmed">
            The adapter for llama.cpp, Ollama and PEFT, beside its base model; imports into another OwnVoice.
          </Text>
        </Menu.Item>
        <Menu.Item
          leftSection={<IconStack2 size={18} />}
          onClick={() => download('merged-model')}
          disabled={!mergeable}
        >
          <Text size="sm" fw={500}>
            One model file (.gguf)
          </Text>
          <Text size="xs" c="dimmed">
            {mergeable
              ? 'The base model with your Voice merged in, for apps that cannot load an adapter. Larger than the base model; takes up to a few minutes to build.'
              : 'Needs the base model this Voice was trained on, which this OwnVoice does not run.'}
          </Text>
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
