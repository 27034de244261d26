// Finding a Voice for a caller, with the answers of policies/: a Voice they may not see is not
// there (404); one they may see but not manage is 403; one asleep cannot write yet.
import type { UserRow, VoiceRow } from '../db/schema.js';
import { errors } from '../errors.js';
import type { InferenceHost } from '../inference/inference-host.js';
import { voicePolicy } from '../policies/index.js';
import type { VoicesRepository } from '../repositories/voices.repository.js';

export async function visibleVoice(voices: VoicesRepository, user: UserRow, id: string): Promise<VoiceRow> {
  const voice = await voices.findById(id);
  if (!voice || !voicePolicy.canView(user, voice)) throw errors.notFound('Voice');
  return voice;
}

/** `refusal` says what only the owner may do with it. */
export async function managedVoice(
  voices: VoicesRepository,
  user: UserRow,
  id: string,
  refusal: string,
): Promise<VoiceRow> {
  const voice = await visibleVoice(voices, user, id);
  if (!voicePolicy.canManage(user, voice)) throw errors.forbidden(refusal);
  return voice;
}

/** The caller's own Voice, awake, for writing with it (Convert, Create); the 4xx to answer otherwise. */
export async function awakeVoice(
  voices: VoicesRepository,
  inference: InferenceHost,
  user: UserRow,
  id: string,
): Promise<VoiceRow> {
  const voice = await managedVoice(voices, user, id, 'Only the owner of this Voice can convert with it.');
  if (voice.status !== 'active') {
    throw errors.voiceNotReady('This Voice is asleep. Wake it up on the dashboard, then convert.');
  }
  await inference.ready();
  if (!inference.isUp(voice.inferenceEndpoint)) {
    throw errors.voiceNotReady(
      'This Voice is being woken again after its writing service restarted. Try again in a moment.',
    );
  }
  return voice;
}
