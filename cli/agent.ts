/**
 * Agent mode of the headless runner: joins a dashboard's session on the control hub and runs
 * the threads the dashboard starts, until the dashboard closes the session (or, with --once,
 * after one run). Prints each run's own totals so they can be checked against the dashboard's.
 */
import { systemClock } from '../core/clocks/index.ts';
import { AgentRelay, CLOCK_ROUND_MAX_MS, type AgentRunReport, type AgentInfo } from '../core/fleet/index.ts';
import { openControlConnection, type ControlConnection } from '../signalr/control-connection.ts';
import { hubExceptionText, isMissingHubMethod } from '../signalr/errors.ts';
import { AGENT_USAGE, parseAgentArgs } from './agent-args.ts';
import { EXIT, exitCodeOf, type Output } from './output.ts';
import { BenchError, errorMessageOf } from '../core/errors/index.ts';
import { enginePort } from './engine-ports.ts';
import { enginesText } from './engine-kind.ts';
import { SESSION_WORDS } from './session-words.ts';

/** With --once, how much longer than a clock round an agent waits for "run-over" before leaving. */
const ONCE_GRACE_MS = 4_000;

/** With --join-timeout, the wait between two tries to join a session that is not open yet. */
const JOIN_RETRY_MS = 1_000;
/** The control hub's refusal for a session that is not open (hub-sample ControlSessions.Join). */
const NO_SESSION = /No session '[^']*' is open/;

export async function runAgent(argv: string[], io: Output): Promise<number> {
  const parsed = parseAgentArgs(argv);
  if (parsed.ok === 'help') {
    io.out(AGENT_USAGE);
    return 0;
  }
  if (!parsed.ok) {
    for (const error of parsed.errors) io.err(`live-bench: ${error}`);
    return EXIT.badInput;
  }
  const { controlUrl, session, sessionSecret, threads, engines, name, once, joinTimeoutSec } = parsed.options;
  const joinDeadlineMs = Date.now() + joinTimeoutSec * 1_000;
  let runs = 0;
  let leaving = false;
  let resolveLeft: (code: number) => void = () => {};
  const left = new Promise<number>((resolve) => (resolveLeft = resolve));
  const leave = (code: number) => {
    leaving = true;
    resolveLeft(code);
  };
  let leaveTimer: ReturnType<typeof setTimeout> | undefined;
  let control!: ControlConnection;
  const relay = new AgentRelay(
    { toDashboard: (message) => control.invoke('ToDashboard', message) },
    systemClock,
    (thread) => enginePort(thread, threads, engines),
    (report) => {
      runs++;
      io.out(agentRunLine(runs, report));
      // With --once, stay for the dashboard's closing clock round (it says "run-over" after it);
      // a dashboard that never says so is left after the longest a round can take.
      if (once) leaveTimer = setTimeout(() => leave(0), CLOCK_ROUND_MAX_MS + ONCE_GRACE_MS);
    },
    () => {
      if (once && runs > 0) leave(0);
    },
    (reason) => {
      io.err(SESSION_WORDS.turnedAway({ reason }));
      leave(EXIT.nothingMeasured);
    },
  );
  const info: AgentInfo = { name, kind: 'node', threads, client: `node ${process.version}`, ...(sessionSecret ? { secret: sessionSecret } : {}) };
  // With --join-timeout, a session that is not open yet is tried again on a fresh connection (the
  // hub closes a connection in no session after ControlJoinSeconds) until the lead opens it.
  for (let attempt = 1; ; attempt++) {
    try {
      control = await openControlConnection(controlUrl);
    } catch (error) {
      io.err(`live-bench: ${errorMessageOf(error)}`);
      return exitCodeOf(error);
    }
    control.on('Control', (message: string) => relay.handle(message));
    control.on('SessionClosed', () => {
      io.err(SESSION_WORDS.sessionClosed());
      // Closed mid-run (a lead that gave this agent's threads up while the control hub was
      // stalled): what its threads measured is printed here, as when the control hub is lost.
      const soFar = relay.runSoFar();
      if (soFar) io.out(SESSION_WORDS.soFarAtSessionEnd({ line: agentRunLine(runs + 1, soFar) }));
      leave(0);
    });
    control.onClose((error) => {
      if (leaving) return;
      io.err(SESSION_WORDS.controlLostLeaving({ message: error ? error.message : null }));
      // Cut off mid-run (a control hub stalled or gone): what its threads measured reached no
      // dashboard, so it is printed here rather than lost with them.
      const soFar = relay.runSoFar();
      if (soFar) io.out(SESSION_WORDS.soFarAtControlLoss({ line: agentRunLine(runs + 1, soFar) }));
      leave(EXIT.nothingMeasured);
    });
    try {
      await control.invoke('JoinSession', session, JSON.stringify(info));
      break;
    } catch (error) {
      const said = errorMessageOf(error);
      const waitMs = Math.min(JOIN_RETRY_MS, joinDeadlineMs - Date.now());
      leaving = true;
      await control.stop();
      if (NO_SESSION.test(said) && waitMs > 0) {
        if (attempt === 1) io.err(SESSION_WORDS.notOpenYet({ session, controlUrl, seconds: joinTimeoutSec }));
        await new Promise((resolve) => setTimeout(resolve, waitMs));
        leaving = false;
        continue;
      }
      // The control hub answered and would not take this agent (no such session, or it refused the call).
      const refusal = new BenchError('refused', SESSION_WORDS.couldNotJoin({ session, why: joinFailure(said, controlUrl) }), { cause: error });
      io.err(`live-bench: ${refusal.message}`);
      return exitCodeOf(refusal);
    }
  }
  io.err(SESSION_WORDS.joined({ name, session, controlUrl, engines: enginesText({ kind: engines, count: threads, reason: engines === 'processes' ? 'asked with --engines processes' : null }) }));
  // SIGTERM too: a container's stop (docker stop, a Kubernetes pod deleted) leaves like Ctrl+C.
  process.once('SIGINT', () => leave(0));
  process.once('SIGTERM', () => leave(0));
  const code = await left;
  clearTimeout(leaveTimer);
  relay.close();
  await control.stop().catch(() => {});
  return code;
}

/** Why JoinSession failed, for people: a hub without the method is not the control hub (most
 *  often the benchmark hub, /signalrbench, given by mistake). */
function joinFailure(message: string, controlUrl: string): string {
  const said = hubExceptionText(message);
  if (!isMissingHubMethod(said)) return said;
  const url = new URL(controlUrl);
  return SESSION_WORDS.noJoinSession({ controlUrl, benchmarkHub: /\/signalrbench\/?$/i.test(url.pathname), control: new URL('/control', url).toString() });
}

/** One line per run, with the counts the dashboard's merged totals should add up to. */
export function agentRunLine(run: number, report: AgentRunReport): string {
  const t = report.totals;
  const failed = report.failedThreads > 0 ? `, ${report.failedThreads} thread(s) failed` : '';
  return `Agent run ${run}: ${report.threads} thread(s), connections opened ${t.connectionsOpened}, failed ${t.connectionsFailed}; sent ${t.sent}, planned ${report.planned}, received ${t.received}${failed}`;
}
