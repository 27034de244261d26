// The one rule of what a Create is charged (decision 37): its short content only when something
// came out in the Voice. However it ends (complete, the Voice put to sleep or crashed, the
// inference process restarted, the client gone, a stalled reader cut off), a Create none of whose
// rewrite reached the person in their Voice is given back in the ledger; one with any of it is
// charged. Convert's stream spends nothing (waking time is metered by the minute), so it has no
// charge to settle.
import type { RewriteEvent } from '@ownvoice/engine';
import { rewriteIsUsable } from '@ownvoice/shared';

/** Whose word says a piece of the Voice's writing reached the person. */
export type VoiceOutputWitness =
  /** The stream's own events: each rewrite event the stream pulled on from was written out (the pages). */
  | 'events'
  /** The caller, which buffers the events and sends whole passages (/v1): `pieceSent()`. */
  | 'caller';

/** Units of short content a Create is charged for what came out in the Voice: 1 for any of it, else 0. */
export const chargedFor = (voiceChunks: readonly string[], pieceSent: boolean): 0 | 1 =>
  pieceSent || rewriteIsUsable(Array.from(voiceChunks, (text) => text ?? '')) ? 1 : 0;

/** What came out of one Create in the Voice, and the charge it settles once. */
export class VoiceOutputCharge {
  /** Each chunk's rewrite as it stands when it reached the person (a reroll starts it again). */
  private readonly chunks: string[] = [];
  private sent = false;
  private settled: Promise<0 | 1> | undefined;
  private settledAs: 0 | 1 | undefined;

  constructor(
    private readonly witness: VoiceOutputWitness,
    /** Gives the spent short content back (the ledger's refund line). */
    private readonly refund: () => Promise<void>,
  ) {}

  /** A rewrite event that was written out to the person (call it once the stream pulled on). */
  reached(event: RewriteEvent): void {
    if (this.witness !== 'events') return;
    if (event.type === 'chunk') this.chunks[event.chunkIndex] = (this.chunks[event.chunkIndex] ?? '') + event.text;
    if (event.type === 'chunk_reroll') this.chunks[event.chunkIndex] = '';
  }

  /** The caller sent a piece of the Voice's writing (witness 'caller'). */
  pieceSent(): void {
    if (this.witness === 'caller') this.sent = true;
  }

  /** Settles the charge once, from what came out so far: answers the units charged (0 means given back). */
  settle(): Promise<0 | 1> {
    this.settled ??= (async () => {
      const charged = chargedFor(this.chunks, this.sent);
      if (charged === 0) await this.refund();
      this.settledAs = charged;
      return charged;
    })();
    return this.settled;
  }

  /**
   * At `complete`: the events' witness has seen everything, so the charge settles now and the
   * event can say it; a caller's witness has yet to send the passages, so it settles at the end.
   */
  settleAtComplete(): Promise<0 | 1 | undefined> {
    return this.witness === 'events' ? this.settle() : Promise.resolve(undefined);
  }

  /** The units charged once settled, else undefined (read by a stream's last event). */
  get outcome(): 0 | 1 | undefined {
    return this.settledAs;
  }
}
