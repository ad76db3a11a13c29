/**
 * A WorkerPort over a child process running cli/engine-thread (the same entry and engine as a
 * worker thread). A process has a table of open files of its own: the open-files limit is per
 * process (and a container's hard limit cannot be raised), so a runner whose engines are
 * processes holds more connections than one whose engines share its table (cli/engine-kind.ts).
 * Messages go over the IPC channel with serialization 'advanced': structured clones, as between
 * threads.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { FromWorker, WorkerPort } from '../core/execution/index.ts';
import { HEAP_TUNING_FLAGS } from './heap-tuning.ts';

/** Every engine process this runner started and has not seen exit: their ids (memory-log.ts sums their memory). */
const running = new Set<ChildProcess>();

export function engineProcessIds(): number[] {
  return [...running].flatMap((child) => (child.pid === undefined ? [] : [child.pid]));
}

/**
 * Resolves once every engine process has exited and been reaped (at most `timeoutMs`): a runner
 * that exits at once leaves them to init, which in a container may never reap them, and their
 * CPU then never reaches the runner's (what /usr/bin/time reports).
 */
export function engineProcessesEnded(timeoutMs = 3_000): Promise<void> {
  const waiting = [...running].map((child) => new Promise<void>((resolve) => child.once('exit', () => resolve())));
  if (waiting.length === 0) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, timeoutMs);
    void Promise.all(waiting).then(() => {
      clearTimeout(timer);
      resolve();
    });
  });
}

/** The runner's node options (e.g. --max-old-space-size) and the engines' heap tuning; no debugger port twice. */
function engineExecArgv(): string[] {
  return [...process.execArgv.filter((arg) => !arg.startsWith('--inspect')), ...HEAP_TUNING_FLAGS];
}

export function processPort(scriptUrl: URL, workerIndex: number): WorkerPort {
  // Its standard output goes to the runner's standard error: with `--json -` the runner's
  // standard output carries the JSON alone.
  const child = fork(fileURLToPath(scriptUrl), [], { serialization: 'advanced', execArgv: engineExecArgv(), stdio: ['ignore', 2, 2, 'ipc'] });
  running.add(child);
  let ended = false;
  let handler: (message: FromWorker) => void = () => {};
  // A process that dies is reported like a worker that crashed, once: the run goes on without it.
  // One killed (out of memory, by a signal) or that exits before the run ends it says nothing
  // else, and would otherwise be waited for forever.
  const died = (message: string) => {
    if (ended) return;
    ended = true;
    handler({ type: 'fatal', workerIndex, message });
  };
  child.on('message', (message: FromWorker) => {
    if (ended) return;
    // Its own report of a failure is the one said; its exit afterwards adds nothing.
    if (message.type === 'fatal') ended = true;
    handler(message);
  });
  child.on('error', (error) => died(`its process failed: ${error.message}`));
  child.on('exit', () => running.delete(child));
  // 'close' comes after the last message it sent was delivered: what it said before dying counts.
  child.on('close', (code, signal) => {
    died(signal ? `its process was ended by ${signal} before the run ended it` : `its process exited (code ${code}) before the run ended it`);
  });
  return {
    post: (message) => {
      if (!ended && child.connected) child.send(message);
    },
    onMessage: (next) => (handler = next),
    terminate: () => {
      ended = true;
      // Like a thread's terminate: at once, its sockets closed with it. SIGKILL, so an engine busy
      // in a long loop cannot outlive the run.
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    },
  };
}
