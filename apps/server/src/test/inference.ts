// What tests ask of the inference endpoints behind a test app: the embedded one (a real child
// process running apps/inference on the house model), and whether it holds a Voice's adapter.

import type { InferenceEndpoint } from '../inference/inference-endpoint.js';
import { EMBEDDED_ENDPOINT } from '../inference/inference-host.js';
import type { TestContext } from './test-app.js';

/** The embedded endpoint, started if it is not yet. */
export async function embeddedEndpoint(ctx: TestContext): Promise<InferenceEndpoint> {
  await ctx.app.platform.inference.ready();
  const endpoint = ctx.app.platform.inference.endpoints().find((e) => e.id === EMBEDDED_ENDPOINT);
  if (!endpoint) throw new Error('the test app has no embedded inference endpoint');
  return endpoint;
}

/** Whether the embedded endpoint has the Voice's adapter loaded (it lists it as a model). */
export const isLoaded = (ctx: TestContext, voiceId: string): Promise<boolean> =>
  ctx.app.platform.inference.holds(EMBEDDED_ENDPOINT, voiceId);
