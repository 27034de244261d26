// Finding a Voice for a caller, with the answers of policies/: a Voice they may not see is not
// there (404); one they may see but not manage is 403; one asleep cannot write yet, unless an
// API key that may wake Voices asks (decision 45).
import type { UserRow, VoiceRow } from '../db/schema.js';
import { errors } from '../errors.js';
import type { InferenceHost } from '../inference/inference-host.js';
import { voicePolicy } from '../policies/index.js';
import type { VoicesRepository } from '../repositories/voices.repository.js';
import type { Caller } from './sessions.service.js';

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

/** What finding a Voice to write with needs: the rows, the model servers, and waking. */
export interface WritingVoiceDeps {
  voices: VoicesRepository;
  inference: InferenceHost;
  /** Wakes a Voice as its owner's dashboard does (ActivationService). */
  activation: { activate(user: UserRow, id: string): Promise<unknown> };
  /** How long a request waits for a wake it started before answering 503 (WAKE_WAIT_MS). */
  wakeWaitMs?: number;
}

/**
 * How long a request made with a key waits for the wake it started. Placing an adapter beside its
 * resident base model takes seconds; a slower wake goes on, and the key is asked to come back, as
 * vLLM and Ollama answer while a model loads.
 */
export const WAKE_WAIT_MS = 20_000;
/** When a key that waits no longer is told to ask again. */
const WAKE_RETRY_SECONDS = 5;

const ASLEEP = {
  session: 'This Voice is asleep. Wake it up on the dashboard, then convert.',
  key: 'This Voice is asleep, and this API key may not wake Voices. Wake it up on the dashboard, or make a key that may wake Voices on your account page.',
  training: 'This Voice is still training. It can write once its training has finished.',
  failed: 'This Voice\u2019s training failed, so it cannot write. Train it again from the dashboard.',
} as const;

/**
 * The caller's own Voice, awake, for writing with it (Convert, Create, /v1); the 4xx to answer
 * otherwise. A request made with an API key that may wake Voices wakes a sleeping one first,
 * charged and checked as a wake on the dashboard (decision 45).
 */
export async function awakeVoice(deps: WritingVoiceDeps, { user, apiKey }: Caller, id: string): Promise<VoiceRow> {
  let voice = await managedVoice(deps.voices, user, id, 'Only the owner of this Voice can convert with it.');
  if (voice.status !== 'active') {
    if (voice.status === 'pending' || voice.status === 'training') throw errors.voiceNotReady(ASLEEP.training);
    if (voice.status === 'failed') throw errors.voiceNotReady(ASLEEP.failed);
    if (!apiKey?.wakesVoices) throw errors.voiceNotReady(apiKey ? ASLEEP.key : ASLEEP.session);
    voice = await wokenVoice(deps, user, id);
  }
  await deps.inference.ready();
  if (!deps.inference.isUp(voice.inferenceEndpoint)) {
    throw errors.voiceNotReady(
      'This Voice is being woken again after its writing service restarted. Try again in a moment.',
    );
  }
  return voice;
}

/** Wakes the Voice for a key and waits for it a while; a wake that takes longer goes on unawaited. */
async function wokenVoice(deps: WritingVoiceDeps, user: UserRow, id: string): Promise<VoiceRow> {
  const wake = deps.activation.activate(user, id);
  let timer: NodeJS.Timeout | undefined;
  const waited = new Promise<'waiting'>((resolve) => {
    timer = setTimeout(() => resolve('waiting'), deps.wakeWaitMs ?? WAKE_WAIT_MS);
  });
  // A wake that fails after the request stopped waiting has told its Voice's card why.
  wake.catch(() => undefined);
  const woken = await Promise.race([wake, waited]).finally(() => clearTimeout(timer));
  if (woken === 'waiting') throw errors.voiceWaking(WAKE_RETRY_SECONDS);
  const voice = await deps.voices.findById(id);
  if (voice?.status === 'active') return voice;
  // Still activating (another request's wake), or put to sleep again at once.
  if (voice?.status === 'activating') throw errors.voiceWaking(WAKE_RETRY_SECONDS);
  throw errors.voiceNotReady(ASLEEP.key);
}
