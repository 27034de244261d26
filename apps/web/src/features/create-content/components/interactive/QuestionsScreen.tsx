// Questions to answer before the outline (long) or before a section; none at all is said so.
import { Alert, Button, Stack, Textarea, Title } from '@mantine/core';
import { IconInfoCircle } from '@tabler/icons-react';
import { setAnswer, withAllAnswers } from '../../interactive-view';
import type { ScreenProps } from './parts';

export function QuestionsScreen({ screen, state, pending, update, send }: ScreenProps<'questions'>) {
  const busy = pending !== null;
  return (
    <Stack gap="sm">
      <Title order={2} fz="lg">
        {screen.heading}
      </Title>
      {screen.notice && (
        <Alert color="teal" icon={<IconInfoCircle size={20} />} data-testid="interactive-no-questions">
          {screen.notice}
        </Alert>
      )}
      {screen.queries.map((query, index) => (
        <Textarea
          // biome-ignore lint/suspicious/noArrayIndexKey: questions are fixed for the step
          key={index}
          label={query}
          value={screen.answers[index] ?? ''}
          onChange={(event) => update(setAnswer(state, index, event.currentTarget.value))}
          autosize
          minRows={2}
          maxLength={20_000}
          disabled={busy}
          data-testid="interactive-question"
        />
      ))}
      <Button
        onClick={() => send(withAllAnswers(state), screen.submit)}
        loading={pending === screen.submit}
        disabled={busy}
        style={{ alignSelf: 'flex-start' }}
        data-testid="interactive-submit"
      >
        {screen.stage === 'skeleton' ? 'Draft the outline' : 'Draft this section'}
      </Button>
    </Stack>
  );
}
