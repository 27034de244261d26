// The console's one second-factor prompt, shared by every sensitive action (MfaProvider holds it).
import { createContext, useContext } from 'react';
import type { MfaOutcome } from '../mfa-retry';

export interface MfaPrompt {
  /**
   * Runs `attempt` without a code; when the server asks for one, opens the code dialog and runs it
   * again with each code typed until one is accepted, the action fails otherwise, or the admin cancels.
   */
  withMfa<T>(attempt: (mfaToken: string | undefined) => Promise<T>): Promise<MfaOutcome<T>>;
}

export const MfaContext = createContext<MfaPrompt | null>(null);

export function useMfaPrompt(): MfaPrompt {
  const prompt = useContext(MfaContext);
  if (!prompt) throw new Error('useMfaPrompt must be used inside <MfaProvider>');
  return prompt;
}
