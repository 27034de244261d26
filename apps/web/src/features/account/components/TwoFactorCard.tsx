// Two-factor settings: set up with an authenticator app (QR code, 6-digit code), see the backup
// codes once, and turn it off with a current code. ?setup=two-factor starts setup at once.
import { Badge, Button, Card, Group, Image, Stack, Text, TextInput, Title } from '@mantine/core';
import {
  ACCOUNT_MESSAGES,
  filterLoginCodeInput,
  LOGIN_CODE_MIN,
  MFA_MESSAGES,
  type MfaSetupResponse,
} from '@ownvoice/shared';
import { IconShieldLock } from '@tabler/icons-react';
import { type FormEvent, useCallback, useState } from 'react';
import { Dialog } from '../../../components/Dialog';
import { ErrorAlert } from '../../../components/ErrorAlert';
import { errorMessage } from '../../../lib/api-error';
import { useSession } from '../../../lib/session/session-context';
import { disableMfa, startMfaSetup, verifyMfa } from '../api';
import { useSetupFromLink } from '../hooks/use-setup-from-link';
import { BackupCodesDialog } from './BackupCodesDialog';

const digitsOnly = (value: string) => value.replace(/\D/g, '').slice(0, 6);
const failure = (fallback: string, error: unknown) => {
  const detail = errorMessage(error, '');
  return detail ? `${fallback}: ${detail}` : fallback;
};

export function TwoFactorCard() {
  const { user, refresh } = useSession();
  const [setup, setSetup] = useState<MfaSetupResponse | null>(null);
  const [backupCodes, setBackupCodes] = useState<string[] | null>(null);
  const [disabling, setDisabling] = useState(false);
  const [starting, setStarting] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const enabled = user?.mfaEnabled ?? false;

  const begin = useCallback(async () => {
    setError(null);
    setStarting(true);
    try {
      setSetup(await startMfaSetup());
    } catch (e) {
      setError(failure(ACCOUNT_MESSAGES.mfaSetupFailed, e));
    } finally {
      setStarting(false);
    }
  }, []);
  useSetupFromLink(begin, enabled);

  return (
    <Card data-testid="mfa-card">
      <Group gap="xs" mb="sm">
        <IconShieldLock size={20} aria-hidden="true" />
        <Title order={2} fz="lg">
          Two-factor authentication
        </Title>
        <Badge color={enabled ? 'teal' : 'gray'} data-testid="mfa-status">
          {enabled ? 'Enabled' : 'Not enabled'}
        </Badge>
      </Group>
      <Stack gap="sm">
        <Text fz="sm" c="dimmed">
          {enabled
            ? 'Signing in asks for a code from your authenticator app, or one of your backup codes.'
            : 'Add a second step to signing in: a 6-digit code from an authenticator app on your phone.'}
        </Text>
        <ErrorAlert message={error} onClose={() => setError(null)} />
        <Group>
          {enabled ? (
            <Button variant="default" color="red" onClick={() => setDisabling(true)}>
              Turn off two-factor
            </Button>
          ) : (
            <Button onClick={begin} loading={starting}>
              Set up two-factor
            </Button>
          )}
        </Group>
      </Stack>
      {setup && (
        <SetupDialog
          setup={setup}
          onClose={() => setSetup(null)}
          onEnabled={async (codes) => {
            setSetup(null);
            setBackupCodes(codes);
            await refresh();
          }}
        />
      )}
      <BackupCodesDialog codes={backupCodes} onClose={() => setBackupCodes(null)} />
      {disabling && (
        <DisableDialog
          onClose={() => setDisabling(false)}
          onDisabled={async () => {
            setDisabling(false);
            await refresh();
          }}
        />
      )}
    </Card>
  );
}

function SetupDialog({
  setup,
  onClose,
  onEnabled,
}: {
  setup: MfaSetupResponse;
  onClose: () => void;
  onEnabled: (backupCodes: string[]) => Promise<void>;
}) {
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (code.length !== 6) {
      setError(MFA_MESSAGES.codeRequired);
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const { backupCodes } = await verifyMfa(setup.secret, code);
      await onEnabled(backupCodes);
    } catch (e) {
      setError(failure(ACCOUNT_MESSAGES.mfaVerifyFailed, e));
      setBusy(false);
    }
  };

  return (
    <Dialog opened onClose={onClose} title="Set up two-factor authentication" centered data-testid="mfa-setup-dialog">
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          <Text fz="sm">
            1. Scan this QR code with an authenticator app (Google Authenticator, 1Password, Authy, Aegis…).
          </Text>
          <Image src={setup.qrCode} alt="QR code for your authenticator app" w={200} h={200} mx="auto" />
          <Text fz="sm">
            Can’t scan it? Enter this key by hand:{' '}
            <Text component="code" ff="monospace" fw={700} data-testid="mfa-secret" style={{ wordBreak: 'break-all' }}>
              {setup.secret}
            </Text>
          </Text>
          <TextInput
            label="2. Enter the 6-digit code the app shows"
            value={code}
            onChange={(e) => {
              setCode(digitsOnly(e.currentTarget.value));
              setError(null);
            }}
            inputMode="numeric"
            autoComplete="one-time-code"
            placeholder="123456"
            maxLength={6}
            data-autofocus
            data-testid="mfa-setup-code"
          />
          <ErrorAlert message={error} onClose={() => setError(null)} />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={busy}>
              Verify and turn on
            </Button>
          </Group>
        </Stack>
      </form>
    </Dialog>
  );
}

function DisableDialog({ onClose, onDisabled }: { onClose: () => void; onDisabled: () => Promise<void> }) {
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await disableMfa(code);
      await onDisabled();
    } catch (e) {
      setError(failure(ACCOUNT_MESSAGES.mfaDisableFailed, e));
      setBusy(false);
    }
  };

  return (
    <Dialog
      opened
      onClose={onClose}
      title="Turn off two-factor authentication"
      centered
      data-testid="mfa-disable-dialog"
    >
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          <Text fz="sm">Enter a current code from your authenticator app, or one of your backup codes.</Text>
          <TextInput
            label="Code"
            value={code}
            onChange={(e) => setCode(filterLoginCodeInput(e.currentTarget.value))}
            autoComplete="one-time-code"
            data-autofocus
            data-testid="mfa-disable-code"
          />
          <ErrorAlert message={error} onClose={() => setError(null)} />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" color="red" loading={busy} disabled={code.length < LOGIN_CODE_MIN}>
              Turn off
            </Button>
          </Group>
        </Stack>
      </form>
    </Dialog>
  );
}
