// The Voice's page: take it home as a .zip (the adapter for llama.cpp, Ollama and PEFT, with a
// README saying how to use each).
import { Button } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { useDownloadVoice } from '../hooks/use-voice-package';

export function DownloadVoiceButton({ voiceId }: { voiceId: string }) {
  const { download, pending } = useDownloadVoice(voiceId);
  return (
    <Button onClick={download} loading={pending} variant="light" leftSection={<IconDownload size={18} />}>
      Download Voice
    </Button>
  );
}
