// Finding a Voice for a caller, with the answers of policies/: a Voice they may not see is not
// there (404); one they may see but not manage is 403; one asleep cannot write yet.
import type { UserRow, VoiceRow } from '../db/schema.js';
import type { EngineHost } from '../engine/engine-host.js';
import { errors } from '../errors.js';
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
  engine: EngineHost,
  user: UserRow,
  id: string,
): Promise<VoiceRow> {
  const voice = await managedVoice(voices, user, id, 'Only the owner of this Voice can convert with it.');
  const started = await engine.started();
  if (voice.status !== 'active' || !started?.isAwake(voice.id)) {
    throw errors.voiceNotReady('This Voice is asleep. Wake it up on the dashboard, then convert.');
  }
  return voice;
}
