/// <reference lib="webworker" />
/**
 * Entry point of one dashboard Web Worker. One worker runs one run, then the page terminates it.
 */
import type { ToWorker } from '../core/execution/index.ts';
import { hostEngine } from './engine-host.ts';

declare const self: DedicatedWorkerGlobalScope;

const host = hostEngine((message) => self.postMessage(message));
self.onmessage = (event: MessageEvent<ToWorker>) => host.handle(event.data);
self.addEventListener('unhandledrejection', (event) => host.fatal(event.reason));
self.addEventListener('error', (event) => host.fatal(event.error ?? event.message));
