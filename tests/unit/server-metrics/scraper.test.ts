/** Reading /metrics: the Prometheus text parsed, rates from consecutive readings, failures said once. */
import { describe, expect, it } from 'vitest';
import { readMetrics } from '../../../core/server-metrics/reading.ts';
import { defaultMetricsUrl, metricsUrlProblem, ServerScraper, SCRAPE_INTERVAL_MS } from '../../../core/server-metrics/scraper.ts';
import { addDeliveries, secondOf, serverSecond } from '../../../core/server-metrics/series.ts';
import { FakeTime, flushMicrotasks } from '../../support/fake-time.ts';

/** What the hub-sample's OpenTelemetry exporter writes (shape copied from a real scrape). */
function metricsText(f: { cpuUser: number; cpuSystem: number; deliveries: [number, number]; connections: number; gcPause: number; queue: number }): string {
  return `# TYPE target_info gauge
target_info{telemetry_sdk_name="opentelemetry",service_name="unknown_service:dotnet"} 1
# TYPE dotnet_process_cpu_count gauge
dotnet_process_cpu_count{otel_scope_name="System.Runtime"} 2
# TYPE dotnet_process_cpu_time_seconds_total counter
# UNIT dotnet_process_cpu_time_seconds_total seconds
dotnet_process_cpu_time_seconds_total{otel_scope_name="System.Runtime",cpu_mode="user"} ${f.cpuUser}
dotnet_process_cpu_time_seconds_total{otel_scope_name="System.Runtime",cpu_mode="system"} ${f.cpuSystem}
# TYPE dotnet_gc_pause_time_seconds_total counter
dotnet_gc_pause_time_seconds_total{otel_scope_name="System.Runtime"} ${f.gcPause}
# TYPE dotnet_thread_pool_queue_length_total counter
dotnet_thread_pool_queue_length_total{otel_scope_name="System.Runtime"} ${f.queue}
# TYPE dotnet_process_memory_working_set_bytes gauge
dotnet_process_memory_working_set_bytes{otel_scope_name="System.Runtime"} 87244800
# TYPE signalr_server_active_connections gauge
signalr_server_active_connections{otel_scope_name="Microsoft.AspNetCore.Http.Connections",signalr_transport="web_sockets"} ${f.connections + 1}
# TYPE hubsample_hub_connections gauge
hubsample_hub_connections{otel_scope_name="HubSample"} ${f.connections}
# TYPE hubsample_hub_deliveries_total counter
hubsample_hub_deliveries_total{otel_scope_name="HubSample",method="Echo"} ${f.deliveries[0]}
hubsample_hub_deliveries_total{otel_scope_name="HubSample",method="Broadcast"} ${f.deliveries[1]}
# TYPE signalr_server_connection_duration_seconds histogram
signalr_server_connection_duration_seconds_bucket{otel_scope_name="Microsoft.AspNetCore.Http.Connections",le="5"} 1
signalr_server_connection_duration_seconds_bucket{otel_scope_name="Microsoft.AspNetCore.Http.Connections",le="+Inf"} 2
signalr_server_connection_duration_seconds_sum{otel_scope_name="Microsoft.AspNetCore.Http.Connections"} 7.5
signalr_server_connection_duration_seconds_count{otel_scope_name="Microsoft.AspNetCore.Http.Connections"} 2
`;
}

const quiet = { cpuUser: 1, cpuSystem: 0.5, deliveries: [10, 0] as [number, number], connections: 50, gcPause: 0.01, queue: 0 };

describe('readMetrics', () => {
  it('sums each figure over its label sets and prefers the hub\'s own connection count', () => {
    const reading = readMetrics(metricsText(quiet), 5);
    expect(reading).toMatchObject({ atUs: 5, cpuSeconds: 1.5, cpuCount: 2, hubDeliveries: 10, hubConnections: 50, signalrConnections: 51, threadPoolQueue: 0, gcPauseSeconds: 0.01 });
  });

  it('reads the process\'s identity from target_info\'s service_instance_id, and the backplane gauge', () => {
    const named = metricsText(quiet).replace('service_name="unknown_service:dotnet"', 'service_name="HubSample",service_instance_id="hub-a:6101"')
      + '# TYPE hubsample_backplane_up gauge\nhubsample_backplane_up{otel_scope_name="HubSample"} 0\n';
    const reading = readMetrics(named, 5);
    expect(reading.instanceId).toBe('hub-a:6101');
    expect(reading.backplaneUp).toBe(0);
    expect(serverSecond(1, reading, null).backplaneUp).toBe(0);
    // An app that does not say: unknown, never a made-up identity or a backplane.
    const plain = readMetrics(metricsText(quiet), 5);
    expect(plain.instanceId).toBeNull();
    expect(serverSecond(1, plain, null).backplaneUp).toBeUndefined();
  });

  it('gives null, not 0, for figures an app does not export', () => {
    const reading = readMetrics('# TYPE dotnet_process_cpu_count gauge\ndotnet_process_cpu_count 4\n', 0);
    expect(reading.cpuCount).toBe(4);
    expect(reading.hubDeliveries).toBeNull();
    expect(reading.signalrConnections).toBeNull();
    expect(serverSecond(1, reading, null).connections).toBeNull();
  });

  it('says so when the answer holds none of the figures (an HTML page, another format)', () => {
    expect(() => readMetrics('<html><body>Not found</body></html>', 0)).toThrow(/holds none of the figures this tool reads/);
    expect(() => readMetrics('{"cpu": 3}', 0)).toThrow(/holds none of the figures this tool reads/);
    // Lines of the families read that are not the format are said as such.
    expect(() => readMetrics('dotnet_process_cpu_count{cpu="0" 3\n', 0)).toThrow(/not in the Prometheus text format/);
  });
});

describe('serverSecond', () => {
  it('takes CPU as a share of all cores and rates over the time between readings', () => {
    const before = readMetrics(metricsText(quiet), 1_000_000);
    const after = readMetrics(metricsText({ ...quiet, cpuUser: 2.2, cpuSystem: 0.7, deliveries: [510, 1_000], gcPause: 0.015, queue: 7 }), 3_000_000);
    const point = serverSecond(2, after, before);
    // 0.9 + 0.2 = 1.4 CPU seconds over 2 s on 2 cores = 35%.
    expect(point.cpuPercent).toBeCloseTo(35, 6);
    expect(point.deliveriesPerSec).toBe(750);
    expect(point.gcPauseMsPerSec).toBeCloseTo(2.5, 6);
    expect(point.threadPoolQueue).toBe(7);
    expect(point.connections).toBe(50);
  });

  it('gives no rate for the first reading or across a counter reset (the app restarted)', () => {
    const before = readMetrics(metricsText({ ...quiet, deliveries: [900, 0] }), 0);
    const after = readMetrics(metricsText(quiet), 1_000_000);
    expect(serverSecond(0, before, null).cpuPercent).toBeNull();
    expect(serverSecond(1, after, before).deliveriesPerSec).toBeNull();
    // The charts mark it: a restart is known here.
    expect(serverSecond(1, after, before).restarted).toBe(true);
    expect(serverSecond(1, before, before).restarted).toBeUndefined();
  });

  it('numbers readings by the run second they close, never twice the same', () => {
    expect(secondOf(1_000_000 + 2_400_000, 1_000_000, null)).toBe(2);
    expect(secondOf(1_000_000 + 2_600_000, 1_000_000, 2)).toBe(3);
    expect(secondOf(1_000_000 + 2_100_000, 1_000_000, 2)).toBe(3);
  });
});

describe('ServerScraper', () => {
  function scraperWith(answers: (() => string)[]) {
    const time = new FakeTime();
    const problems: string[] = [];
    let call = 0;
    const scraper = new ServerScraper({
      url: 'http://127.0.0.1:5180/metrics',
      fetchText: async () => (answers[Math.min(call++, answers.length - 1)]!)(),
      clock: time,
      timers: time,
      onProblem: (message) => problems.push(message),
    });
    return { time, scraper, problems, calls: () => call };
  }
  const fail = () => {
    throw new Error('404 Not Found (the app does not serve metrics there)');
  };

  it('reads once at the start and then once a second, until stopped with a last reading', async () => {
    let deliveries = 0;
    const { time, scraper, calls } = scraperWith([() => metricsText({ ...quiet, deliveries: [(deliveries += 100), 0] })]);
    scraper.start();
    await flushMicrotasks();
    await time.advanceByMs(3 * SCRAPE_INTERVAL_MS + 10);
    expect(calls()).toBe(4);
    await scraper.stop();
    expect(calls()).toBe(5);
    await time.advanceByMs(5 * SCRAPE_INTERVAL_MS);
    expect(calls()).toBe(5);
    const record = scraper.record();
    // The same copy until something changes: views refreshing each frame do not redraw for nothing.
    expect(scraper.record()).toBe(record);
    expect(record.points.map((p) => p.second)).toEqual([0, 1, 2, 3, 4]);
    expect(record.deliveries).toBe(400);
    expect(record.problem).toBeNull();
  });

  it('says a failure once, counts every failed scrape, and reads again when the server answers', async () => {
    const { time, scraper, problems } = scraperWith([fail, fail, fail, () => metricsText(quiet)]);
    scraper.start();
    await flushMicrotasks();
    const first = scraper.record();
    await time.advanceByMs(4 * SCRAPE_INTERVAL_MS + 10);
    expect(scraper.record()).not.toBe(first);
    await scraper.stop(false);
    expect(problems).toEqual(['Server metrics at http://127.0.0.1:5180/metrics could not be read: 404 Not Found (the app does not serve metrics there). The run goes on without them; switch them off or give another address to stop this message.']);
    const record = scraper.record();
    expect(record.failedScrapes).toBe(3);
    expect(record.points.length).toBe(2);
  });
});

describe('readMetrics on a large answer', () => {
  it('reads its figures among 4 MB of other families', () => {
    const others = Array.from({ length: 60_000 }, (_, i) => `# HELP app_route_${i} a route\n# TYPE app_route_${i} counter\napp_route_${i}{route="/r/${i}"} ${i}\n`).join('');
    const text = others + metricsText(quiet);
    expect(text.length).toBeGreaterThan(4_000_000);
    expect(readMetrics(text, 5)).toMatchObject({ cpuSeconds: 1.5, hubDeliveries: 10, hubConnections: 50, signalrConnections: 51 });
  });
});

describe('ServerScraper with a parser elsewhere (the runner\'s metrics thread)', () => {
  it('hands each answer to the parser with the time it came, and counts a parser\'s refusal as a failed scrape', async () => {
    const time = new FakeTime();
    const handed: { text: string; atUs: number }[] = [];
    let refuse = false;
    const scraper = new ServerScraper({
      url: 'http://h/metrics',
      fetchText: async () => metricsText(quiet),
      parse: async (text, atUs) => {
        handed.push({ text, atUs });
        if (refuse) throw new Error('the answer is not in the Prometheus text format (bad line)');
        return readMetrics(text, atUs);
      },
      clock: time,
      timers: time,
    });
    scraper.start();
    await flushMicrotasks();
    refuse = true;
    await time.advanceByMs(SCRAPE_INTERVAL_MS + 10);
    await scraper.stop(false);
    expect(handed.map((h) => h.text)).toEqual([metricsText(quiet), metricsText(quiet)]);
    expect(handed[1]!.atUs - handed[0]!.atUs).toBe(SCRAPE_INTERVAL_MS * 1_000);
    const record = scraper.record();
    expect(record.points.length).toBe(1);
    expect(record.failedScrapes).toBe(1);
    expect(record.problem).toContain('could not be read: the answer is not in the Prometheus text format (bad line)');
  });
});

describe('metrics addresses', () => {
  it('derives the endpoint\'s /metrics and explains a bad address', () => {
    expect(defaultMetricsUrl('https://app.example:8443/signalrbench?x=1')).toBe('https://app.example:8443/metrics');
    expect(metricsUrlProblem('http://127.0.0.1:5180/metrics')).toBeNull();
    expect(metricsUrlProblem('ftp://127.0.0.1/metrics')).toMatch(/must start with http/);
    expect(metricsUrlProblem('127.0.0.1:5180/metrics')).toMatch(/is not a URL/);
    expect(metricsUrlProblem('not a url')).toMatch(/is not a URL/);
  });
});

describe('addDeliveries', () => {
  const at = (deliveries: number | null) => ({ ...readMetrics(metricsText(quiet), 0), hubDeliveries: deliveries });

  it('adds what the hub counted between readings, from 0 at the first', () => {
    expect(addDeliveries(null, null, at(500))).toBe(0);
    expect(addDeliveries(0, at(500), at(800))).toBe(300);
    expect(addDeliveries(300, at(800), at(800))).toBe(300);
  });

  it('is unknown from a reset (a restarted hub) or a missing counter on, never a wrong number', () => {
    expect(addDeliveries(300, at(800), at(20))).toBeNull();
    expect(addDeliveries(null, at(20), at(900))).toBeNull();
    expect(addDeliveries(0, at(500), at(null))).toBeNull();
    // A restarted hub that already counted past the old figure: its CPU time went back.
    expect(addDeliveries(300, { ...at(800), cpuSeconds: 40 }, { ...at(900), cpuSeconds: 0.5 })).toBeNull();
  });
});

describe('ServerScraper schedule', () => {
  it('keeps to the run\'s seconds when answers are slow, one reading at a time', async () => {
    const time = new FakeTime();
    const startUs = time.nowUs();
    const askedAtMs: number[] = [];
    const scraper = new ServerScraper({
      url: 'http://h/metrics',
      // Each answer takes 400 ms.
      fetchText: (): Promise<string> => {
        askedAtMs.push((time.nowUs() - startUs) / 1_000);
        return new Promise((resolve) => time.setTimeout(() => resolve(metricsText(quiet)), 400));
      },
      clock: time,
      timers: time,
    });
    scraper.start();
    await time.advanceByMs(4_200);
    // Stopped while the 4 s reading is on its way: it is dropped, the record stays as it was.
    const stopping = scraper.stop(false);
    await time.advanceByMs(300);
    await stopping;
    expect(askedAtMs).toEqual([0, 1_000, 2_000, 3_000, 4_000]);
    expect(scraper.record().points.length).toBe(4);
  });
});
