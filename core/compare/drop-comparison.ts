/**
 * One drop, run once per variant: under each reconnect policy, or with stateful reconnect off and
 * on. The dashboard's comparison runs the variants in turn and puts them side by side. Pure.
 */
import { RECONNECT_POLICIES, RECONNECT_POLICY_LABELS } from '../drops/index.ts';
import { validateRunConfig, type RunConfig } from '../run-config/index.ts';
import { COMPARE_WORDS } from './words.ts';

export const DROP_COMPARISONS = ['policies', 'stateful'] as const;
export type DropComparisonKind = (typeof DROP_COMPARISONS)[number];

export interface DropVariant {
  /** "policy: fixed 1 s, for up to 60 s", "stateful reconnect on". */
  label: string;
  /** The run's configuration; null when the variant is refused. */
  config: RunConfig | null;
  refusals: string[];
}

export interface DropComparisonPlan {
  variants: DropVariant[];
  /** Why it cannot start, or null. */
  problem: string | null;
}

export function planDropComparison(base: RunConfig, kind: DropComparisonKind): DropComparisonPlan {
  if ((base.dropAtSec ?? null) === null) {
    return { variants: [], problem: COMPARE_WORDS.dropNotSet() };
  }
  const changes: { label: string; change: Partial<RunConfig> }[] = kind === 'policies'
    ? RECONNECT_POLICIES.map((policy) => ({ label: `policy: ${RECONNECT_POLICY_LABELS[policy]}`, change: { reconnectPolicy: policy } }))
    : [false, true].map((stateful) => ({ label: `stateful reconnect ${stateful ? 'on' : 'off'}`, change: { statefulReconnect: stateful } }));
  const variants = changes.map(({ label, change }) => {
    const checked = validateRunConfig({ ...base, ...change });
    return { label, config: checked.ok ? checked.config : null, refusals: checked.ok ? [] : checked.errors };
  });
  const refused = variants.filter((v) => v.config === null);
  const problem = refused.length > 0 ? `${refused.map((v) => v.label).join(', ')} cannot run: ${refused[0]!.refusals.join(' ')}` : null;
  return { variants, problem };
}
