/**
 * Which form fields a list of problems is about, so each can be outlined and point at the
 * messages (aria-invalid, aria-describedby). Each problem names its fields (core/run-config/config.ts
 * ConfigProblem: the form's fields are the configuration's names); "advanced" is added when any
 * folded field is at fault, to unfold it.
 */

/** A problem the form shows: its sentence and the fields it is about (none: the form as a whole). */
export interface FormProblem {
  fields: readonly string[];
  message: string;
}

/** Fields under Advanced (folded by default). */
const ADVANCED = new Set([
  'workers', 'drainSec', 'warmupSec', 'connectConcurrency', 'senders', 'groupSize', 'groupCount',
  'reconnect', 'reconnectPolicy', 'dropAtSec', 'dropEverySec', 'dropSharePercent', 'dropKind', 'statefulReconnect',
  'skipNegotiation',
]);

export function fieldsInError(problems: readonly FormProblem[]): Set<string> {
  const fields = new Set(problems.flatMap((problem) => problem.fields));
  if ([...fields].some((f) => ADVANCED.has(f))) fields.add('advanced');
  return fields;
}
