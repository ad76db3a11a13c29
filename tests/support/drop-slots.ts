/**
 * The receptions a drop's gap costs, worked out from the schedule alone: the oracle the drop tests
 * hold the engine's fates against (each such reception ends as never sent or lost, never as
 * arrived, and is never left out of the plan).
 */
/**
 * Slots of one open-loop schedule (first at `firstUs`, then every `intervalUs`, none at or after
 * `endUs`) planned in [fromUs, toUs). These are the receptions a gap costs a connection per sender
 * it hears from: without stateful reconnect each ends as never sent (its sender was reconnecting)
 * or lost (its receiver was); never as arrived, and never left out of the plan.
 */
export function slotsInWindow(firstUs: number, intervalUs: number, endUs: number, fromUs: number, toUs: number): number {
  const upToUs = Math.min(toUs, endUs);
  if (upToUs <= fromUs || upToUs <= firstUs) return 0;
  const firstIn = Math.max(0, Math.ceil((fromUs - firstUs) / intervalUs));
  const lastBefore = Math.ceil((upToUs - firstUs) / intervalUs) - 1;
  return Math.max(0, lastBefore - firstIn + 1);
}

/**
 * Receptions a receiver in a gap [fromUs, toUs) was planned to get: the slots in that window of
 * every sender it hears from (itself for echo, every broadcast sender, its group's senders).
 */
export function expectedGapReceptions(senders: readonly { firstUs: number }[], intervalUs: number, endUs: number, fromUs: number, toUs: number): number {
  let total = 0;
  for (const sender of senders) total += slotsInWindow(sender.firstUs, intervalUs, endUs, fromUs, toUs);
  return total;
}
