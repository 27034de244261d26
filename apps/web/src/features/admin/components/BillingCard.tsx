// Billing on the overview: whether payments reach accounts (and why not), the last reconciliation,
// what waits to be done at the provider, and Reconcile now (a fresh second-factor code), whose
// result is said on the card.
import { Badge, Button, Card, Group, Loader, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import type { Reconciliation } from '@ownvoice/shared';
import { IconReceipt2 } from '@tabler/icons-react';
import { type ReactNode, useState } from 'react';
import { ErrorAlert } from '../../../components/ErrorAlert';
import { errorMessage } from '../../../lib/api-error';
import { type BillingStatusView, billingStatusView, reconcileResult } from '../billing-status';
import { useReconcileBilling } from '../hooks/use-admin-actions';
import { useBillingStatus } from '../hooks/use-admin-data';

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Stack gap={2}>
      <Text fz="xs" c="gray.7" tt="uppercase" fw={700}>
        {label}
      </Text>
      <Text fz="sm" component="div">
        {children}
      </Text>
    </Stack>
  );
}

export function BillingCard() {
  const { data, error, isPending } = useBillingStatus();
  const [lastRun, setLastRun] = useState<Reconciliation | null>(null);
  const reconcile = useReconcileBilling(setLastRun);
  const result = lastRun ? reconcileResult(lastRun) : null;
  const view = data ? billingStatusView(data) : null;

  return (
    <Card padding="md" data-testid="admin-billing">
      <Group justify="space-between" mb="sm">
        <Group gap="xs">
          <IconReceipt2 size={20} aria-hidden="true" />
          <Title order={2} fz="lg">
            Billing
          </Title>
        </Group>
        {view?.canReconcile && (
          <Button
            variant="light"
            size="compact-sm"
            loading={reconcile.pending}
            onClick={() => {
              setLastRun(null);
              reconcile.execute();
            }}
            data-testid="admin-reconcile"
          >
            Reconcile now
          </Button>
        )}
      </Group>
      {error ? <ErrorAlert message={errorMessage(error, 'Failed to load billing status')} /> : null}
      {isPending && <Loader size="sm" aria-label="Loading billing status" />}
      {view && <BillingFacts view={view} />}
      {/* Always in the page, so what a run found is announced when it arrives (a polite status). */}
      <div role="status" data-testid="admin-reconcile-result">
        {result && (
          <Text fz="sm" mt="sm" c={result.ok ? 'teal.9' : 'red.9'}>
            {result.message}
          </Text>
        )}
      </div>
      <ErrorAlert message={reconcile.error} onClose={reconcile.clearError} />
    </Card>
  );
}

function BillingFacts({ view }: { view: BillingStatusView }) {
  return (
    <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="md">
      <Fact label="Health">
        <Stack gap={4} align="flex-start">
          {/* A dot badge: the colour marks the state, the label stays in the readable text colour. */}
          <Badge variant="dot" color={view.health.color} data-testid="admin-billing-health">
            {view.health.label}
          </Badge>
          <Text fz="sm">{view.health.reason}</Text>
        </Stack>
      </Fact>
      <Fact label="Last reconciliation">
        <span data-testid="admin-billing-last-reconciliation">{view.lastReconciliation}</span>
        {view.lastError && (
          <Text fz="sm" c="red.9">
            Failed: {view.lastError}
          </Text>
        )}
      </Fact>
      <Fact label="Pending provider actions">
        <span data-testid="admin-billing-pending">{view.pendingActions}</span>
      </Fact>
    </SimpleGrid>
  );
}
