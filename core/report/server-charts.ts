/** The server's charts in the HTML report (inline SVG), as the dashboard draws them. */
import type { RunResult } from '../result/index.ts';
import { lineChartSvg, onSendClock, sendOffsetSec } from '../charts/index.ts';
import { instanceLabel, instanceSeries, INSTANCE_COLORS, SERVER_LOAD_ADVICE_PERCENT } from '../server-metrics/index.ts';

export function serverCharts(result: Pick<RunResult, 'points' | 'server' | 'sendWindow'>): string[] {
  const points = result.server?.points ?? [];
  if (points.length === 0) return [];
  // The client's clock: 0 at the first planned send (core/charts/time-axis.ts).
  const offset = sendOffsetSec(result.sendWindow);
  const xs = points.map((p) => onSendClock(p.second, offset));
  const xLabel = offset === null ? 'seconds since start' : 's from the first planned send';
  const received = new Map(result.points.map((p) => [p.second, p.received]));
  const server = result.server!;
  // With several hub instances, each one's line beside the combination (core/server-metrics/instances.ts).
  const each = (figure: 'cpuPercent' | 'deliveriesPerSec', what: string) =>
    instanceSeries(server, figure).map((values, k) => ({ label: `${instanceLabel(server, k)}: ${what}`, color: INSTANCE_COLORS[k % INSTANCE_COLORS.length]!, values }));
  return [
    lineChartSvg({
      title: 'Server CPU (guide: keep under 70%)',
      xLabel,
      yLabel: '% of all cores',
      xs,
      series: [
        { label: server.instances ? 'server CPU, busiest instance' : 'server CPU', color: '#c92a2a', values: points.map((p) => p.cpuPercent) },
        ...each('cpuPercent', 'CPU'),
        { label: `guide's ${SERVER_LOAD_ADVICE_PERCENT}%`, color: '#868e96', values: xs.map(() => SERVER_LOAD_ADVICE_PERCENT) },
      ],
    }),
    lineChartSvg({
      title: 'Deliveries per second: server and client',
      xLabel,
      yLabel: 'msg/s',
      xs,
      series: [
        { label: server.instances ? 'server: delivered, all instances' : 'server: delivered', color: '#2f9e44', values: points.map((p) => p.deliveriesPerSec) },
        ...each('deliveriesPerSec', 'delivered'),
        { label: 'client: received', color: '#1971c2', values: points.map((p) => received.get(p.second) ?? null) },
      ],
    }),
  ];
}
