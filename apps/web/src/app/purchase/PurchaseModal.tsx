// The purchase modal (accounts-billing-admin.md "Purchase modal"), mounted once: whichever
// feature ran out of a resource raised it through lib/purchase-prompt. Titled Insufficient
// resources, it names the blocked resource and offers the quick top-up for it (where the server
// sells packs), View plans and Close.
import { Button, Group, Stack, Text, ThemeIcon } from '@mantine/core';
import { IconShoppingCart } from '@tabler/icons-react';
import { useNavigate } from 'react-router';
import { Dialog } from '../../components/Dialog';
import { useBillingAvailability } from '../../lib/billing/billing-queries';
import { quickTopUpPacks } from '../../lib/billing/quick-top-up';
import { PATHS } from '../../lib/paths';
import { closePurchasePrompt, usePurchasePrompt } from '../../lib/purchase-prompt';
import { purchaseCopy } from './purchase-copy';
import { QuickTopUp } from './QuickTopUp';

export function PurchaseModal() {
  const limit = usePurchasePrompt();
  const navigate = useNavigate();
  const billing = useBillingAvailability({ enabled: limit !== null });
  const copy = limit ? purchaseCopy(limit) : null;
  const [first, ...rest] = quickTopUpPacks(limit, billing);
  const packs = first ? ([first, ...rest] as const) : null;

  const goToPlans = () => {
    closePurchasePrompt();
    navigate(PATHS.plans);
  };

  return (
    <Dialog
      opened={limit !== null}
      onClose={closePurchasePrompt}
      title="Insufficient resources"
      centered
      data-testid="purchase-modal"
    >
      <Stack gap="md">
        <Group gap="sm" wrap="nowrap" align="flex-start">
          <ThemeIcon variant="light" size={40} radius="md">
            <IconShoppingCart size={22} />
          </ThemeIcon>
          <Stack gap={4}>
            <Text fw={600} data-testid="purchase-resource">
              {copy?.title}
            </Text>
            <Text fz="sm">{copy?.body}</Text>
          </Stack>
        </Group>
        {packs && <QuickTopUp key={packs.join()} packs={packs} />}
        <Group justify="flex-end" gap="sm">
          {/* Opens here, not on the paying button above. */}
          <Button variant="default" onClick={closePurchasePrompt} data-autofocus>
            Close
          </Button>
          <Button variant={packs ? 'light' : 'filled'} onClick={goToPlans}>
            View plans
          </Button>
        </Group>
      </Stack>
    </Dialog>
  );
}
