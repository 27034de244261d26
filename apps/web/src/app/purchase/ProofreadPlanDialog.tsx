// Asked before an edit pass that needs more proofreads than are left (lib/rewrite/proofread-plan):
// how many it needs and has, and the three ways on. Closing it skips the pass; what is not
// proofread is marked so beside the output either way.
import { Button, Group, Stack, Text } from '@mantine/core';
import { Dialog } from '../../components/Dialog';
import { formatCount } from '../../lib/format';
import { useProofreadQuestion } from '../../lib/rewrite/proofread-plan';

const proofreads = (n: number) => `${formatCount(n)} ${n === 1 ? 'proofread' : 'proofreads'}`;

export function ProofreadPlanDialog() {
  const question = useProofreadQuestion();
  return (
    <Dialog
      opened={question !== null}
      onClose={() => question?.answer('skip')}
      title="Not enough proofreads"
      centered
      data-testid="proofread-plan"
    >
      {question && (
        <Stack gap="md">
          <Text>
            The edit pass proofreads each chunk of the rewrite, one proofread per chunk: this one needs{' '}
            {proofreads(question.needed)}, and you have {question.left === 0 ? 'none' : proofreads(question.left)} left.
          </Text>
          <Text fz="sm" c="dimmed">
            Chunks that are not proofread keep the Voice's wording and are marked as not proofread.
          </Text>
          <Group justify="flex-end" gap="sm">
            {/* Opens on the choice that spends nothing. */}
            <Button variant="default" onClick={() => question.answer('skip')} data-autofocus>
              Skip proofreading
            </Button>
            {question.left > 0 && (
              <Button variant="light" onClick={() => question.answer('first')}>
                Proofread the first {formatCount(question.left)}
              </Button>
            )}
            <Button onClick={() => question.answer('buy')}>Buy proofreads</Button>
          </Group>
        </Stack>
      )}
    </Dialog>
  );
}
