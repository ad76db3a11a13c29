/** A whole run (coordinator, engines, fake hub) on one fake clock. */
import type { RunConfig } from '../../core/run-config/config.ts';
import { RunCoordinator, type CoordinatorOptions, type WorkerPort } from '../../core/execution/coordinator.ts';
import { BenchEngine } from '../../workers/engine/bench-engine.ts';
import type { FromWorker } from '../../core/execution/worker-messages.ts';
import { classifyPlainly, fakeHub, type FakeHubOptions } from './fake-connections.ts';
import { FakeTime } from './fake-time.ts';

export function fakeRun(runConfig: RunConfig, options: FakeHubOptions, coordinatorOptions: CoordinatorOptions = {}) {
  const time = new FakeTime();
  const hub = fakeHub(time, options);
  const ports: WorkerPort[] = Array.from({ length: runConfig.workers }, () => {
    let handler: (message: FromWorker) => void = () => {};
    const engine = new BenchEngine({ clock: time, timers: time, connect: hub.factory, classify: classifyPlainly, post: (m) => handler(m) });
    return { post: (m) => engine.handle(m), onMessage: (h) => (handler = h), terminate: () => void engine.finish() };
  });
  const coordinator = new RunCoordinator(runConfig, ports, time, time, coordinatorOptions);
  return { time, hub, coordinator, ports };
}
