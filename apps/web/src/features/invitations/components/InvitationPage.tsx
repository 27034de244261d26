// /invite/:token: an admin invitation. It says who is invited and as what, then offers what fits:
// sign up (a new address), accept (the invited account is signed in), or log in first. A used,
// expired or unknown link says to ask an admin for a new one.
import { Button, Card, Center, Loader, Stack, Text } from '@mantine/core';
import { invitationTokenParamsSchema, PRODUCT_NAME, ROLE_LABELS } from '@ownvoice/shared';
import { useState } from 'react';
import { useParams } from 'react-router';
import { EmailConfirmationAlert } from '../../../components/EmailConfirmationAlert';
import { ErrorAlert } from '../../../components/ErrorAlert';
import { Page } from '../../../components/Page';
import { errorMessage } from '../../../lib/api-error';
import { formatDateTime } from '../../../lib/format';
import { useSession } from '../../../lib/session/session-context';
import { useAcceptInvitation } from '../hooks/use-accept-invitation';
import { useInvitation } from '../hooks/use-invitation';
import { INVITATION_MESSAGES, invitationStep, unusableInvitationMessage } from '../invitation-view';
import { InvitationSignInPrompt } from './InvitationSignInPrompt';
import { InvitationSignUpForm } from './InvitationSignUpForm';
import { InvitationUnavailable } from './InvitationUnavailable';

function InvitationBody({ token }: { token: string }) {
  const session = useSession();
  const [unusable, setUnusable] = useState<string | null>(null);
  const invitation = useInvitation(token);
  const acceptance = useAcceptInvitation(token, setUnusable);

  if (unusable) return <InvitationUnavailable message={unusable} />;
  if (invitation.isError) {
    const message = unusableInvitationMessage(invitation.error);
    if (message) return <InvitationUnavailable message={message} />;
    return <ErrorAlert message={errorMessage(invitation.error, INVITATION_MESSAGES.loadFailed)} />;
  }
  if (invitation.isPending || session.status === 'loading') {
    return (
      <Center py="xl">
        <Loader aria-label="Loading the invitation" />
      </Center>
    );
  }

  const info = invitation.data;
  const step = invitationStep(info, session.user);
  return (
    <Stack gap="lg" data-testid="invitation" data-step={step}>
      <Text>
        This invitation is for <strong data-testid="invitation-email">{info.email}</strong>. It expires{' '}
        {formatDateTime(info.expiresAt)}; accepting it asks for two-factor setup next.
      </Text>
      {step === 'sign-up' && (
        <InvitationSignUpForm
          email={info.email}
          pending={acceptance.pending}
          error={acceptance.error}
          onClearError={acceptance.clearError}
          onSubmit={acceptance.signUp}
        />
      )}
      {step === 'accept' && (
        <Stack gap="md">
          <ErrorAlert message={acceptance.error} onClose={acceptance.clearError} />
          <EmailConfirmationAlert notice={acceptance.confirmation.notice} />
          <Button
            size="md"
            onClick={acceptance.accept}
            loading={acceptance.pending}
            disabled={acceptance.confirmation.blocked}
          >
            Accept invitation
          </Button>
        </Stack>
      )}
      {(step === 'sign-in' || step === 'wrong-account') && (
        <InvitationSignInPrompt token={token} email={info.email} signedInAs={session.user?.username ?? null} />
      )}
    </Stack>
  );
}

/** The heading names the role once the invitation is loaded; it shares the query's cache. */
function InvitationTitle({ token }: { token: string }) {
  const { data } = useInvitation(token);
  return data ? (
    <span data-testid="invitation-title">
      You are invited to {PRODUCT_NAME} as {ROLE_LABELS[data.role]}
    </span>
  ) : (
    'Admin invitation'
  );
}

export function InvitationPage() {
  const { token = '' } = useParams();
  const wellFormed = invitationTokenParamsSchema.safeParse({ token }).success;
  return (
    <Page
      eyebrow="Admin invitation"
      title={wellFormed ? <InvitationTitle token={token} /> : 'Admin invitation'}
      documentTitle="Admin invitation"
      size="sm"
    >
      <Card padding="xl">
        {wellFormed ? (
          <InvitationBody token={token} />
        ) : (
          <InvitationUnavailable message={INVITATION_MESSAGES.unknown} />
        )}
      </Card>
    </Page>
  );
}
