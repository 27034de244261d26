// The purchase modal of spec §5, mounted once: whichever feature ran out of a resource raised it
// through lib/purchase-prompt. Billing arrives later, so its button leads to the Plans page.
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
      title={copy?.title}
      centered
      data-testid="purchase-modal"
    >
      <Stack gap="md">
        <Group gap="sm" wrap="nowrap" align="flex-start">
          <ThemeIcon variant="light" size={40} radius="md">
            <IconShoppingCart size={22} />
          </ThemeIcon>
          <Text fz="sm">{copy?.body}</Text>
        </Group>
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={closePurchasePrompt}>
            Not now
          </Button>
          <Button onClick={goToPlans}>See plans and top-ups</Button>
        </Group>
      </Stack>
    </Modal>
  );
}
