/** The instance a connection opens on: round-robin by its run-wide index. A leaf of its own, so
 *  the credentials (per instance) need not import the run's configuration through run-config's hub-instances.ts. */
export function instanceOf(connectionIndex: number, instances: number): number {
  return connectionIndex % instances;
}
