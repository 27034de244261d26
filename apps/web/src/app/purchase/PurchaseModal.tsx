// The purchase modal (accounts-billing-admin.md "Purchase modal"), mounted once: whichever
// feature ran out of a resource raised it through lib/purchase-prompt. Titled Insufficient
// resources, it names the blocked resource and offers View plans and Close; the quick top-up
// button arrives with billing.
import { Button, Group, Modal, Stack, Text, ThemeIcon } from '@mantine/core';
import { IconShoppingCart } from '@tabler/icons-react';
import { useNavigate } from 'react-router';
import { PATHS } from '../../lib/paths';
import { closePurchasePrompt, usePurchasePrompt } from '../../lib/purchase-prompt';
import { purchaseCopy } from './purchase-copy';

export function PurchaseModal() {
  const limit = usePurchasePrompt();
  const navigate = useNavigate();
  const copy = limit ? purchaseCopy(limit) : null;

  const goToPlans = () => {
    closePurchasePrompt();
    navigate(PATHS.plans);
  };

  return (
    <Modal
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
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={closePurchasePrompt}>
            Close
          </Button>
          <Button onClick={goToPlans}>View plans</Button>
        </Group>
      </Stack>
    </Modal>
  );
}
