/**
 * The words of the runner's own limits (client-limits.ts): a run its open files or ephemeral
 * ports cannot hold, refused or warned about with what to type. Figures come formatted. Pure.
 */

export const LIMITS_WORDS = {
  tooManyProcesses: (p: { connections: string; processes: string; fits: string; soft: string; maxEngines: number; raise: string }) => `${p.connections} connections need ${p.processes} engine processes of ${p.fits} connections each (each may open ${p.soft} files, its soft limit, "Max open files"), but a run has at most ${p.maxEngines} engines. ${p.raise}`,
  /** `share`: the connections of one process; `processes`: how many share them (1: the runner alone). */
  overOpenFiles: (p: { share: string; processes: number; processesText: string; soft: string; raise: string }) => `${p.processes === 1 ? `${p.share} connections need` : `${p.share} connections in each of ${p.processesText} engine processes need`} at least as many open files, but ${p.processes === 1 ? 'this runner' : 'each'} may open ${p.soft} (its soft limit, "Max open files"): every connection past that would fail with EMFILE. ${p.raise}`,
  nearOpenFiles: (p: { share: string; processes: number; processesText: string; soft: string; headroom: string; raise: string }) => `${p.share} connections${p.processes === 1 ? '' : ` in each of ${p.processesText} engine processes`} are close to ${p.processes === 1 ? 'this runner\'s' : 'each one\'s'} limit of ${p.soft} open files (about ${p.headroom} go to the ${p.processes === 1 ? 'runner' : 'process'} itself): some may fail with EMFILE, and the run will be judged client-limited. ${p.raise}`,
  stepsOverOpenFiles: (p: { fits: string; soft: string; raise: string }) => `Steps above about ${p.fits} connections will run out of this runner's ${p.soft} open files (EMFILE): they will be judged client-limited, not the service's. ${p.raise}`,
  /** To whom the connections go: one hub, or each of several instances. */
  toWhom: (p: { instances: number }) => (p.instances === 1 ? 'to one hub' : `to each of ${p.instances} hub instances`),
  portsAdvice: () => 'Widen the range (sysctl -w net.ipv4.ip_local_port_range="1024 65000"), spread the connections over more hub instances (--endpoint repeated), or over more agents (live-bench --agent on other machines).',
  overPorts: (p: { connections: string; toWhom: string; ports: string; low: number; high: number }) => `${p.connections} connections ${p.toWhom} need as many ephemeral ports, but this machine has ${p.ports} per hub address (net.ipv4.ip_local_port_range ${p.low}-${p.high}): the rest would fail with EADDRNOTAVAIL. ${LIMITS_WORDS.portsAdvice()}`,
  nearPorts: (p: { connections: string; toWhom: string; ports: string; low: number; high: number }) => `${p.connections} connections ${p.toWhom} are close to this machine's ${p.ports} ephemeral ports per hub address (net.ipv4.ip_local_port_range ${p.low}-${p.high}): connects past them fail with EADDRNOTAVAIL and are judged client-limited. ${LIMITS_WORDS.portsAdvice()}`,
  fewEngines: (p: { connections: string; workers: number; workersText: string; perEngine: string; cores: string; advised: number }) => `${p.connections} connections on ${p.workersText} engine${p.workers === 1 ? '' : 's'} is over ${p.perEngine} per engine while this machine has ${p.cores} cores: an engine that falls behind is judged client-limited. Give it --workers ${p.advised}.`,
  // What to type for open files: up to the hard limit, or beyond it with engine processes or agents.
  raiseSplit: (p: { oneProcess: boolean }) => (p.oneProcess ? 'run the engines as processes, each with open files of its own (--engines processes --workers n), ' : ''),
  raiseTo: (p: { target: number; split: string }) => `Raise it in the shell that starts the runner: ulimit -n ${p.target}; or ${p.split}spread the connections over more agents.`,
  raiseToHard: (p: { hard: number; split: string }) => `Raise it in the shell that starts the runner: ulimit -n ${p.hard} (its hard limit); or ${p.split}spread the connections over more agents.`,
  raiseHard: (p: { hard: string; target: number; split: string }) => `Its hard limit is ${p.hard}: raise it (LimitNOFILE in a systemd unit, nofile in /etc/security/limits.conf) and then ulimit -n ${p.target}, or ${p.split}spread the connections over more agents (live-bench --agent on other machines).`,
} as const;
