/**
 * Which form fields a list of validation messages is about, so each can be outlined and point at
 * the messages (aria-invalid, aria-describedby). Messages start with the field's label
 * (core/run/config.ts); "advanced" is added when any folded field is at fault, to unfold it.
 */
const FIELD_LABELS: [field: string, label: string][] = [
  ['endpointUrl', 'Endpoint'],
  ['connections', 'Connections'],
  ['workers', 'Workers'],
  ['messageBytes', 'Message size'],
  ['sendIntervalMs', 'Send interval'],
  ['durationSec', 'Duration'],
  ['drainSec', 'Drain'],
  ['warmupSec', 'Warm-up'],
  ['connectConcurrency', 'Connects in flight'],
  ['senders', 'Senders'],
  ['groupSize', 'Group size'],
  ['groupCount', 'Group count'],
  ['dropAtSec', 'Drop'],
  ['dropAtSec', 'A planned drop'],
  ['statefulReconnect', 'Stateful reconnect'],
  ['transport', 'Server-Sent Events carry text only'],
  ['protocol', 'Server-Sent Events carry text only'],
  ['connections', 'Start refused'],
  ['hubProfile', 'Hub profile'],
  ['hubProfile', 'Scenario '],
];

const ADVANCED = new Set(['workers', 'drainSec', 'warmupSec', 'connectConcurrency', 'senders', 'groupSize', 'groupCount', 'dropAtSec', 'statefulReconnect']);

export function fieldsInError(errors: readonly string[]): Set<string> {
  const fields = new Set<string>();
  for (const error of errors) {
    for (const [field, label] of FIELD_LABELS) if (error.startsWith(label)) fields.add(field);
  }
  if ([...fields].some((f) => ADVANCED.has(f))) fields.add('advanced');
  return fields;
}
