import type { BehaviourPlan } from './fake-behaviour.js';
import type { StreamEvent } from './fake-response.js';

/** How one wire format writes a stream; the player decides what and when. */
export interface StreamSink {
  event(event: StreamEvent, last: boolean): Promise<void>;
  /** A mid-stream error in the wire's own form, then a clean end. */
  error(type: string, message: string): Promise<void>;
  end(): void;
  /** Destroys the socket: no terminating chunk, no clean end. */
  drop(): void;
}

type Interruption = { kind: 'error'; type: string; message: string } | { kind: 'drop' } | { kind: 'hang' };

/**
 * Writes `events` with the plan's gap, firing at most one interruption once its delta count is reached
 * (checked before every event after message_start). `signal` aborts when the client goes away.
 */
export async function playStream(
  events: readonly StreamEvent[],
  plan: BehaviourPlan,
  sink: StreamSink,
  signal: AbortSignal,
): Promise<void> {
  const totalDeltas = events.filter((e) => e.delta).length;
  const trigger = pickInterruption(plan, totalDeltas);
  let deltas = 0;
  if ((plan.firstEventDelayMs ?? 0) > 0) await sleep(plan.firstEventDelayMs ?? 0, signal);
  if (signal.aborted) return;
  if (plan.errorBeforeStart !== undefined) {
    await sink.error(plan.errorBeforeStart.type, plan.errorBeforeStart.message);
    return;
  }
  for (const [i, event] of events.entries()) {
    if (signal.aborted) return;
    if (i > 0 && trigger !== null && deltas >= trigger.after) {
      await interrupt(trigger.what, sink, signal);
      return;
    }
    if (i > 0 && (plan.gapMs ?? 0) > 0) await sleep(plan.gapMs ?? 0, signal);
    if (signal.aborted) return;
    await sink.event(event, i === events.length - 1);
    if (event.delta) deltas++;
  }
  sink.end();
}

/** The earliest knob wins; a count past the last delta is clamped so the knob still fires. */
function pickInterruption(plan: BehaviourPlan, totalDeltas: number): { after: number; what: Interruption } | null {
  const candidates: Array<{ after: number; what: Interruption }> = [];
  if (plan.errorMidStream !== undefined) {
    const { afterDeltas, type, message } = plan.errorMidStream;
    candidates.push({ after: afterDeltas, what: { kind: 'error', type, message } });
  }
  if (plan.dropAfterDeltas !== undefined) candidates.push({ after: plan.dropAfterDeltas, what: { kind: 'drop' } });
  if (plan.hangAfterDeltas !== undefined) candidates.push({ after: plan.hangAfterDeltas, what: { kind: 'hang' } });
  let best: { after: number; what: Interruption } | null = null;
  for (const c of candidates) {
    const after = Math.min(Math.max(0, c.after), totalDeltas);
    if (best === null || after < best.after) best = { after, what: c.what };
  }
  return best;
}

async function interrupt(what: Interruption, sink: StreamSink, signal: AbortSignal): Promise<void> {
  if (what.kind === 'error') await sink.error(what.type, what.message);
  else if (what.kind === 'drop') sink.drop();
  else await waitForAbort(signal);
}

export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted === true) return resolve();
    const onAbort = (): void => {
      clearTimeout(timer);
      resolve();
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

export function waitForAbort(signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
}
