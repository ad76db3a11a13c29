/**
 * The page's words on the serverless scenarios: why this page does not start them (it would have
 * to hold the service's AccessKey), and the ways that do (the runner, alone or leading agents,
 * which hands them the key), with the docs page. serverless-refusal.ts decides and builds the
 * command; ServerlessRefusal.svelte shows these as they are.
 */
export const SERVERLESS_PAGE_WORDS = {
  /** `scenario`: its label ("Broadcast through the REST API"). */
  refusal: (p: { scenario: string }) =>
    `This page does not start ${p.scenario}: its sends are REST API calls signed with your service's AccessKey, and a page must not hold that key.`,
  /** Start's own reason, read with the button (its title and its description). */
  startOff: (p: { scenario: string }) => `Start is off for ${p.scenario}: this page cannot hold the AccessKey it needs; run it with the runner's command.`,
  runnerOffer: (p: { envName: string }) =>
    `Run it with the runner, the connection string in ${p.envName} (or a file), never on the command line:`,
  docsLink: () => 'How to run it (docs/serverless.md)',
  guideLink: () => "The guide's Serverless mode section",
  /** A fold under the command: the same setup over agents. */
  agentsSummary: () => 'Past one machine: agents, led by the runner',
  agentsOffer: () =>
    "This page cannot lead agents in these scenarios: it would have to hold the key to hand it to them. The runner leads them instead, " +
    "through this page's control hub, and hands the key to each agent with each run (--agents-secrets refuse keeps it off a plain http control hub). " +
    'Start it, then each agent with the command it prints:',
  /** The scenario list's group of the two: chosen here, they say how to run them. */
  scenarioGroup: () => 'Serverless mode (REST API): with the runner',
  copy: () => 'Copy',
  copied: () => 'Copied',
  copyLabel: () => 'Copy the command',
};
