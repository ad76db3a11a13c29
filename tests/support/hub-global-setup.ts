/**
 * Vitest global setup for the projects that need the hub: one real hub-sample process for the
 * whole project (HTTP and HTTPS/HTTP2 listeners), stopped afterwards whether tests pass or fail.
 */
import type { TestProject } from 'vitest/node';
import { startHub } from './hub-process.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    hubHttpUrl: string;
    hubHttpsUrl: string;
  }
}

export default async function setup(project: TestProject) {
  const hub = await startHub({ https: true });
  project.provide('hubHttpUrl', hub.httpUrl);
  project.provide('hubHttpsUrl', hub.httpsUrl!);
  // Also when the test run itself is interrupted, so no hub outlives it.
  const kill = () => hub.process.kill('SIGKILL');
  const interrupted = (signal: NodeJS.Signals) => {
    kill();
    process.exit(signal === 'SIGINT' ? 130 : 143);
  };
  process.once('exit', kill);
  process.once('SIGINT', interrupted);
  process.once('SIGTERM', interrupted);
  return async () => {
    process.off('exit', kill);
    process.off('SIGINT', interrupted);
    process.off('SIGTERM', interrupted);
    await hub.stop();
  };
}
