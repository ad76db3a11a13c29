/**
 * The probe's call of a profile's method, made as the run will make it: invoked, invoked with
 * its message as the one item of a client-to-server stream (`{stream}`), or, for deliver
 * "stream", as a streaming call whose first item is read. A stream whose items cannot carry the
 * tool's text (numbers: aspnetcore's Counter; objects, which a stream item's reader does not open) or that the profile gives no text to stream back is
 * found here, before the run, instead of every message going missing.
 */
import type { Timers } from '../../core/clocks/index.ts';
import type { BenchConnection } from './connection.ts';
import type { ProbeCall } from '../scenarios/scenario.ts';

/** How long the probe waits for a stream's first item before it lets the run find out, in ms. */
export const PROBE_ITEM_WAIT_MS = 5_000;

/** What the probe learned of a streaming call: null when nothing speaks against it. */
export type StreamVerdict = { problem: 'notText' | 'noCarrier'; first: unknown } | null;

/**
 * Makes one probe call. Resolves with the verdict on a streaming call's first item (null for
 * any other call); rejects as the call does (the hub could not bind it, or ran it and threw).
 */
export async function probeCall(connection: BenchConnection, call: ProbeCall, message: string, probeTs: number, timers: Timers): Promise<StreamVerdict> {
  const upload = call.uploads ? connection.upload() : undefined;
  const args = call.args(probeTs, message, upload);
  if (!call.streamsBack) {
    const done = connection.invoke(call.method, ...args);
    upload?.next(message);
    upload?.complete();
    await done;
    return null;
  }
  const first = await firstItem(connection, call.method, args, upload, message, timers);
  if (first.timedOut) return null;
  if (!canCarryText(first.item) && first.item !== undefined) return { problem: 'notText', first: first.item };
  return call.carries ? null : { problem: 'noCarrier', first: first.item };
}

/** Text: a stream's items are read as the tool's text itself (a profile has no path into a
 *  stream's items), so an object or a list is refused here with numbers, not lost item by item. */
function canCarryText(item: unknown): boolean {
  return typeof item === 'string';
}

/** The first item of a streaming call (undefined when it completed with none), or a time-out. */
function firstItem(connection: BenchConnection, method: string, args: unknown[], upload: ReturnType<BenchConnection['upload']> | undefined, message: string, timers: Timers): Promise<{ item: unknown; timedOut: boolean }> {
  return new Promise((resolve, reject) => {
    let settled = false;
    let timer: unknown = null;
    let subscription: { dispose(): void } | null = null;
    /** `cancel`: the stream is still going (an item came, or the wait is over): the hub is told to stop it. */
    const settle = (cancel: boolean, outcome: () => void) => {
      if (settled) return;
      settled = true;
      timers.clearTimeout(timer);
      if (cancel) subscription?.dispose();
      upload?.complete();
      outcome();
    };
    subscription = connection.stream(method, ...args).subscribe({
      next: (item) => settle(true, () => resolve({ item, timedOut: false })),
      complete: () => settle(false, () => resolve({ item: undefined, timedOut: false })),
      error: (error) => settle(false, () => reject(error)),
    });
    if (settled) return subscription.dispose();
    upload?.next(message);
    timer = timers.setTimeout(() => settle(true, () => resolve({ item: undefined, timedOut: true })), PROBE_ITEM_WAIT_MS);
  });
}
