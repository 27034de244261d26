import { Anchor, type AnchorProps } from '@mantine/core';
import type { ReactNode } from 'react';

/** A link that leaves the site, opened in a new tab without handing over this page. */
export function ExternalLink({ href, children, ...props }: { href: string; children: ReactNode } & AnchorProps) {
  return (
    <Anchor href={href} target="_blank" rel="noopener noreferrer" {...props}>
      {children}
    </Anchor>
  );
}
