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
  const stop = () => void hub.stop();
  process.once('exit', stop);
  return async () => {
    process.off('exit', stop);
    await hub.stop();
  };
}
