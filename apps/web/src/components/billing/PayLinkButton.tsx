// The provider's page for an unpaid invoice, in this tab: it sends the person back to the plans page.
// In the brand colour, whose white label keeps its contrast (orange or red ones would not).
import { Button } from '@mantine/core';
import { IconCreditCard } from '@tabler/icons-react';
import type { PayLink } from '../../lib/billing/billing-problem';

export function PayLinkButton({ link }: { link: PayLink }) {
  return (
    <Button
      component="a"
      href={link.url}
      size="sm"
      leftSection={<IconCreditCard size={16} aria-hidden="true" />}
      data-testid="pay-link"
    >
      {link.label}
    </Button>
  );
}
