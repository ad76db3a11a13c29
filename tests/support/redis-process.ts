/**
 * A throw-away Redis for the scale-out tests: Debian's redis-server (scripts/setup.sh installs it)
 * on a free port, nothing saved to disk, stopped by the test that started it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';

export interface RunningRedis {
  port: number;
  /** The StackExchange.Redis configuration the hub-sample takes (--Redis). */
  configuration: string;
  process: ChildProcess;
  stop: () => Promise<void>;
}

/** A port nothing listens on now (the system's pick). */
export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Starts redis-server (with `extraArgs`, e.g. `--requirepass x`) and resolves once it accepts
 *  connections (within `timeoutMs`). */
export async function startRedis(extraArgs: string[] = [], timeoutMs = 10_000): Promise<RunningRedis> {
  const port = await freePort();
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', ...extraArgs], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk) => (output += chunk.toString()));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => fail(new Error(`redis-server did not start within ${timeoutMs} ms. It printed:\n${output}`)), timeoutMs);
    const onError = (error: Error) => fail(new Error(`redis-server could not be started (${error.message}): install it with 'bash scripts/setup.sh --with-redis' (Debian's redis-server).`));
    const onExit = (code: number | null) => fail(new Error(`redis-server exited with code ${code} before accepting connections. It printed:\n${output}`));
    const onData = () => {
      if (!/Ready to accept connections/.test(output)) return;
      done();
      resolve();
    };
    const done = () => {
      clearTimeout(timer);
      child.off('error', onError);
      child.off('exit', onExit);
      child.stdout!.off('data', onData);
    };
    const fail = (error: Error) => {
      done();
      child.kill('SIGKILL');
      reject(error);
    };
    child.on('error', onError);
    child.on('exit', onExit);
    child.stdout!.on('data', onData);
  });
  return {
    port,
    configuration: `127.0.0.1:${port}`,
    process: child,
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}
