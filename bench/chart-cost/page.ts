// The page of bench/chart-cost.mjs: five uPlot charts shaped like the dashboard's (5, 4, 4, 1 and
// 2 lines, 440 px wide) over `n` seconds, one new second added and drawn each second, either
// the way the charts did it before (every column remapped from the points, every point drawn:
// mode=full) or as they do now (columns extended, a long run drawn decimated: mode=decimated).
import uPlot from 'uplot';
import { ChartColumns, type Pick } from '../../core/charts/columns.ts';
import { ChartDecimator } from '../../core/charts/decimate.ts';

interface Point {
  second: number;
  values: number[];
}

const query = new URLSearchParams(location.search);
const startSeconds = Number(query.get('n') ?? 600);
const mode = query.get('mode') ?? 'full';
const points: Point[] = [];
// A noisy line with a spike every 97 s: what decimation must not hide.
const add = (second: number) => points.push({ second, values: Array.from({ length: 5 }, (_, k) => 1 + k + Math.sin(second / (7 + k)) + (second % 97 === 0 ? 30 : 0) + Math.random()) });
for (let s = 1; s <= startSeconds; s++) add(s);

const charts = [5, 4, 4, 1, 2].map((lines) => {
  const element = document.createElement('div');
  document.body.append(element);
  const picks: Pick<Point>[] = Array.from({ length: lines }, (_, k) => (p: Point) => p.values[k]!);
  const columns = new ChartColumns<Point>(picks);
  const decimator = new ChartDecimator();
  const series = [{}, ...picks.map(() => ({ stroke: '#c92a2a', width: 2 }))];
  const chart = new uPlot({ width: 440, height: 200, scales: { x: { time: false } }, series, legend: { show: false } }, columns.update(points) as uPlot.AlignedData, element);
  return { picks, columns, decimator, chart };
});

setInterval(() => {
  add(points.length + 1);
  // The controller hands the page a new list each second.
  const list = [...points];
  for (const c of charts) {
    if (mode === 'full') c.chart.setData(new ChartColumns<Point>(c.picks).update(list) as uPlot.AlignedData);
    else c.chart.setData(c.decimator.update(c.columns.update(list), c.chart.over.clientWidth) as uPlot.AlignedData);
  }
}, 1_000);
