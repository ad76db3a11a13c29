// The serverless scenarios on this page: refused, since their sends are signed with the service's
// AccessKey and a page is no place for it, and the runner's command that runs the same setup
// instead, the connection string named by its environment variable (never its value). Pure.
import { isServerlessScenario, type ServerlessScenario } from '../../core/guide/index.ts';
import { DEFAULTS } from '../../core/run-config/index.ts';
import { CONNECTION_STRING_FLAGS } from '../../core/serverless/index.ts';

/** The environment variable the offered command reads the connection string from. */
export const CONNECTION_STRING_ENV = 'SIGNALR_CONNECTION_STRING';
/** The runner as installed from the package (docs/install.md); in the project folder
 *  `node bin/live-bench.js` takes the same options. */
const RUNNER = 'npx live-bench';
/** The hub the command names: the hub-sample's BenchHub by Azure's name for it (the runner's
 *  default too), written out so that a serverless app's own hub name has its place in the line. */
export const COMMAND_HUB = 'benchhub';
/** Agents in the offered lead command: two, the smallest fleet. */
const LEAD_AGENTS = 2;

/** The form's fields the command carries, as typed. */
export interface RestFormFields {
  scenario: string;
  transport: string;
  protocol: string;
  connections: string;
  sendIntervalMs: string;
  messageBytes: string;
  durationSec: string;
  senders: string;
}

export interface ServerlessRefusal {
  scenario: ServerlessScenario;
  /** The runner's command for the form's setup: one line, no secret in it. */
  command: string;
  /** The same setup over agents, led by the runner (which holds the key and hands it to the
   *  agents with each run) through the control hub that serves this page. */
  leadCommand: string;
}

/** Why Start is off and what runs it instead, or null for a scenario this page runs.
 *  `controlUrl`: the control hub beside this page (the hub-sample's /control). */
export function serverlessRefusal(fields: RestFormFields, controlUrl: string): ServerlessRefusal | null {
  if (!isServerlessScenario(fields.scenario)) return null;
  const setup = setupArgs(fields.scenario, fields);
  return {
    scenario: fields.scenario,
    command: [RUNNER, ...setup].join(' '),
    leadCommand: [RUNNER, '--lead', '--agents', String(LEAD_AGENTS), '--control', controlUrl, ...setup].join(' '),
  };
}

// The load's figures go in as typed when they are whole numbers: anything else is the runner's to
// refuse with its own words, so it is left out rather than quoted into a command line.
const FIGURES: ReadonlyArray<[keyof RestFormFields, string]> = [
  ['connections', '--connections'],
  ['sendIntervalMs', '--interval-ms'],
  ['messageBytes', '--message-bytes'],
  ['durationSec', '--duration'],
  ['senders', '--senders'],
];

function setupArgs(scenario: ServerlessScenario, fields: RestFormFields): string[] {
  const parts = ['--scenario', scenario, CONNECTION_STRING_FLAGS.env, CONNECTION_STRING_ENV, '--azure-hub', COMMAND_HUB];
  // The clients' own transport and protocol to the service, when they are not the defaults.
  if (fields.transport !== DEFAULTS.transport && /^\w+$/.test(fields.transport)) parts.push('--transport', fields.transport);
  if (fields.protocol !== DEFAULTS.protocol && /^\w+$/.test(fields.protocol)) parts.push('--protocol', fields.protocol);
  for (const [field, flag] of FIGURES) {
    const typed = fields[field].trim();
    if (/^\d+$/.test(typed)) parts.push(flag, typed);
  }
  return parts;
}
