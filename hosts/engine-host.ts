/**
 * A BenchEngine as a worker runs it, in a browser Web Worker or a Node worker thread: the
 * system clock and timers, the real SignalR client, and every failure reported as "fatal"
 * instead of dying silently. The one place the engine (workers/) meets the SignalR client
 * (signalr/): it stands outside both, so signalr/ implements the engine's connection interface
 * (workers/engine/connection.ts) and workers/ never import signalr/.
 */
import { systemClock, systemTimers } from '../core/clocks/index.ts';
import { type FromWorker, type ToWorker } from '../core/execution/index.ts';
import { scrubSecrets, type Credentials } from '../core/run-config/index.ts';
import { BenchEngine } from '../workers/engine/bench-engine.ts';
import type { RestPost } from '../workers/engine/rest-sends.ts';
import { signalRConnectionFactory, type PlatformOverrides } from '../signalr/bench-connection.ts';
import { classifySignalRError } from '../signalr/errors.ts';
import { signClientToken, signRestToken } from '../signalr/rest-tokens.ts';

export interface EngineHost {
  handle(message: ToWorker): void;
  fatal(error: unknown): void;
}

/** `platform`: what the SignalR client needs where there are no browser globals (cli/ in Node);
 *  `restPost`: how the REST scenarios' calls are made there (fetch when absent). */
export function hostEngine(post: (message: FromWorker) => void, platform: PlatformOverrides = {}, restPost?: RestPost): EngineHost {
  let workerIndex = -1;
  // Agents on other machines run on the dashboard's time base (see StartMessage.clockOffsetUs).
  let clockOffsetUs = 0;
  const engine = new BenchEngine({
    clock: { nowUs: () => systemClock.nowUs() - clockOffsetUs },
    timers: systemTimers,
    connect: signalRConnectionFactory(platform),
    classify: classifySignalRError,
    post,
    // A dedicated Web Worker has WorkerGlobalScope; a Node worker thread does not.
    inBrowser: 'WorkerGlobalScope' in globalThis,
    // The serverless scenarios' tokens, signed with jose at the wall clock's time (not the run's
    // time base); never in a browser, which is given no key (core/fleet refuses browser agents).
    ...('WorkerGlobalScope' in globalThis ? {} : { signer: { rest: signRestToken, client: signClientToken } }),
    ...(restPost ? { restPost } : {}),
  });
  let credentials: Credentials | undefined;
  const fatal = (error: unknown) => post({ type: 'fatal', workerIndex, message: scrubSecrets(error instanceof Error ? error.message : String(error), credentials) });
  return {
    handle(message) {
      if (message.type === 'start') {
        workerIndex = message.workerIndex;
        clockOffsetUs = message.clockOffsetUs ?? 0;
        credentials = message.credentials;
      }
      try {
        engine.handle(message);
      } catch (error) {
        fatal(error);
      }
    },
    fatal,
  };
}
