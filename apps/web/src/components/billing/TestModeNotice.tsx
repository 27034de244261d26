// Said wherever something can be bought on a server that never charges a card.
import { Alert } from '@mantine/core';
import { IconFlask } from '@tabler/icons-react';

export function TestModeNotice() {
  return (
    <Alert color="yellow" icon={<IconFlask size={20} />} title="Test mode" data-testid="billing-test-mode">
      Payments on this server are simulated: no card is charged.
    </Alert>
  );
}
