// A tutorial panel of the onboarding guides: violet, with a close button. It closes
// itself unless the caller controls `opened` (a tour that also closes when finished).
import { Alert } from '@mantine/core';
import { IconSchool } from '@tabler/icons-react';
import { type ReactNode, useState } from 'react';

export interface GuidePanelProps {
  title: ReactNode;
  closeButtonLabel: string;
  testId: string;
  children: ReactNode;
  opened?: boolean;
  onClose?: () => void;
}

export function GuidePanel({ title, closeButtonLabel, testId, children, opened, onClose }: GuidePanelProps) {
  const [openHere, setOpenHere] = useState(true);
  if (!(opened ?? openHere)) return null;
  return (
    <Alert
      color="violet"
      icon={<IconSchool size={20} />}
      title={title}
      withCloseButton
      onClose={() => {
        setOpenHere(false);
        onClose?.();
      }}
      closeButtonLabel={closeButtonLabel}
      data-testid={testId}
    >
      {children}
    </Alert>
  );
}
