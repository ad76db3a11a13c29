/** The server's charts in the HTML report (inline SVG), as the dashboard draws them. */
import type { RunResult } from '../run/index.ts';
import { lineChartSvg, onSendClock, sendOffsetSec } from '../charts/index.ts';
import { SERVER_LOAD_ADVICE_PERCENT } from '../server-metrics/index.ts';

export function serverCharts(result: Pick<RunResult, 'points' | 'server' | 'sendWindow'>): string[] {
  const points = result.server?.points ?? [];
  if (points.length === 0) return [];
  // The client's clock: 0 at the first planned send (core/charts/time-axis.ts).
  const offset = sendOffsetSec(result.sendWindow);
  const xs = points.map((p) => onSendClock(p.second, offset));
  const xLabel = offset === null ? 'seconds since start' : 's from the first planned send';
  const received = new Map(result.points.map((p) => [p.second, p.received]));
  return [
    lineChartSvg({
      title: 'Server CPU (guide: keep under 70%)',
      xLabel,
      yLabel: '% of all cores',
      xs,
      series: [
        { label: 'server CPU', color: '#c92a2a', values: points.map((p) => p.cpuPercent) },
        { label: `guide's ${SERVER_LOAD_ADVICE_PERCENT}%`, color: '#868e96', values: xs.map(() => SERVER_LOAD_ADVICE_PERCENT) },
      ],
    }),
    lineChartSvg({
      title: 'Deliveries per second: server and client',
      xLabel,
      yLabel: 'msg/s',
      xs,
      series: [
        { label: 'server: delivered', color: '#2f9e44', values: points.map((p) => p.deliveriesPerSec) },
        { label: 'client: received', color: '#1971c2', values: points.map((p) => received.get(p.second) ?? null) },
      ],
    }),
  ];
}
