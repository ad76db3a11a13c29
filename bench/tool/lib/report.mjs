// Writes the tool benchmark's figures as Markdown (bench/TOOL-RESULTS.md). The "## Notes" section
// at the end of the existing file is written by people and kept from run to run.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { goalsSection } from './goals.mjs';

const NOTES_HEADING = '## Notes';
const n = (v, digits = 0) => (v == null || Number.isNaN(v) ? '–' : Number(v).toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits }));
const pct = (v, digits = 0) => (v == null ? '–' : `${n(100 * v, digits)}%`);
const row = (cells) => `| ${cells.join(' | ')} |`;
const CLIENT_NAMES = {
  tab: 'tab (dashboard, 2 Web Workers)', browserRaw: 'same browser, raw WebSockets (2 Web Workers)', library: 'Node + @microsoft/signalr (plain script)', raw: 'Node + raw WebSockets (leanest)',
  runner: 'headless runner (bin/live-bench.js, 2 worker threads)', runner1: 'headless runner, --workers 1',
  browserLibrary: 'same browser, plain @microsoft/signalr (2 Web Workers)',
  libraryAgain: 'control: the plain script again', browserRawAgain: 'control: same browser, raw WebSockets again',
  browserLibraryAgain: 'control: same browser, plain @microsoft/signalr again',
};
const RUNNER_CLIENTS = ['runner', 'runner1'];

export function writeMarkdown(doc, outPath, notesFrom) {
  const r = doc.results;
  const m = doc.machine;
  const lines = [
    '# Benchmarks of the tool itself',
    '',
    `Latest run: ${doc.startedAt.slice(0, 16).replace('T', ' ')} UTC, \`${doc.command}\` (${Math.round((Date.parse(doc.finishedAt) - Date.parse(doc.startedAt)) / 60_000)} min). ` +
      `Machine: ${m.cores} cores (${m.cpuModel}), ${m.memoryGiB} GiB, ${m.chromium}, Node ${m.node}; the hub-sample, the clients and the browser share the cores, over loopback. ` +
      `The machine was shared with other work: load average ${n(m.loadAverageAtStart[0], 2)} at the start, ${n(m.loadAverageAtEnd[0], 2)} at the end. ` +
      'Compare figures within this run (the ratios), not with other machines. Machine-readable: [tool-results.json](tool-results.json).',
    '',
    '**How each client measures.** Every client runs the same open loop: send *n* of connection *i* is planned at `start + i/N × interval + n × interval`; ' +
      'the hub\'s `ts` carries the planned time (µs since the epoch); latency = receive time − planned time, in an HdrHistogram (1 µs–10 min, 3 digits); ' +
      'a send more than one interval late is a missed slot; 2 KB payload `runId:sender:seq:lag|xxx…`; warm-up sends left out; 8 connects in flight. ' +
      'The **tab** is the dashboard itself in Chromium launched directly (no Playwright), started by its URL (`?autostart=1&report=…`, `src/lib/bench-hook.ts`), 2 Web Workers, JSON over WebSockets. ' +
      'The **same-browser raw client** (`bench/tool/clients/browser-raw/`) is a page with 2 Web Workers holding raw WebSockets that speak SignalR\'s JSON protocol by hand; it keeps each latency in an array and posts them at the end. ' +
      'The **plain-library script** (`bench/tool/clients/library-client.mjs`) is what the `@microsoft/signalr` docs show: `HubConnectionBuilder().withUrl().build()`, `on(\'Measure\')`, `start()`, `send(\'Echo\', …)`, one Node thread. ' +
      'The **raw client** (`bench/tool/clients/raw-client.mjs`) is `ws` speaking SignalR\'s JSON protocol by hand (negotiate, handshake, invocation frames; reads only `ts` and the payload), one Node thread. ' +
      'The **headless runner** is `bin/live-bench.js --scenario echo --json <file> --quiet --no-guide-rule` (the dashboard\'s engine in Node worker threads; its main thread only merges the threads\' snapshots), run with its default 2 worker threads and with `--workers 1`; its measured window is cut from the planned send window in its JSON (`sendWindow`). ' +
      'The **controls** (`libraryAgain`, `browserRawAgain`, `browserLibraryAgain`) are the plain-library script, the same-browser raw client and the same-browser plain-library client run a second time, last at each step: a ratio between a client and its control is what the machine alone does to a ratio. ' +
      'CPU is utime+stime from `/proc` over the measured window only: every Chromium process (split into the page\'s main thread, its workers, the network service that does the socket I/O, the rest), or the Node process; the hub\'s beside it.',
    '',
  ];
  lines.push(...goalsSection(r));
  if (r.throughput) lines.push(...throughputSection(r.throughput, doc));
  if (r.latency) lines.push(...latencySection(r.latency));
  if (r.rampup) lines.push(...rampSection(r.rampup));
  if (r.dashboard) lines.push(...dashboardSection(r.dashboard));
  if (r.transports) lines.push(...transportSection(r.transports));
  const previous = existsSync(notesFrom) ? readFileSync(notesFrom, 'utf8') : '';
  const notesAt = previous.indexOf(`\n${NOTES_HEADING}`);
  const text = lines.join('\n') + '\n' + (notesAt >= 0 ? previous.slice(notesAt) : '');
  writeFileSync(outPath, text);
  return text;
}

function throughputSection(t, doc) {
  const CLIENTS = t.clients ?? ['tab', 'browserRaw', 'library', 'raw'];
  const c = t.ceilings;
  const rate = (x) => (x ? x.receivedPerSec : null);
  const ratio = (a, b) => (a && b ? a / b : null);
  const lines = [
    '## 1. Throughput ceiling of one tab',
    '',
    `${t.connections} WebSocket connections (JSON), echo of 2,048 B, the send rate raised in steps of about 33% ` +
      `(${doc.settings.stepSec} s per step, the first ${doc.settings.warmupSec} s left out), each step run by every client in turn, until a client's p99 reaches 1 s, ` +
      'it misses more than 1% of its slots or loses more than 0.1% of its messages, twice in a row at one step (a failed step is run again once: the machine is shared); ' +
      'then one more step halfway between the last that held and the one that failed narrows the ceiling. ' +
      'The ceiling is the received rate of the last step that held. "Same browser, raw WebSockets" is the leanest client this browser can run ' +
      '(`bench/tool/clients/browser-raw/`: 2 Web Workers, raw WebSockets, SignalR\'s JSON protocol by hand, same schedule): the browser\'s own limit.',
    '',
    row(['client', 'ceiling (msg/s received)', 'first step that failed (twice)', 'tab as a share of it', 'runner (2 threads) as a share of it']),
    row(['---', '---:', '---', '---:', '---:']),
  ];
  for (const client of CLIENTS) {
    const failed = t.failedAt[client];
    const ramped = t.steps.some((s) => s.client === client);
    const why = !ramped ? 'not ramped in this run' : failed ? `${n(failed.targetPerSec)}/s: ${failed.error ?? failed.failures.join(', ')}` : 'none (top step held)';
    lines.push(row([CLIENT_NAMES[client], n(rate(c[client])), why, client === 'tab' ? '–' : pct(ratio(rate(c.tab), rate(c[client]))),
      client === 'runner' ? '–' : pct(ratio(rate(c.runner), rate(c[client])))]));
  }
  lines.push('', 'Every step:', '', row(['target msg/s', 'client', 'received/s', 'p50 ms', 'p99 ms', 'missed slots', 'lost', 'client CPU s per 1,000', 'hub CPU s per 1,000', 'holds']),
    row(['---:', '---', '---:', '---:', '---:', '---:', '---:', '---:', '---:', '---']));
  for (const s of t.steps) {
    if (s.error) lines.push(row([n(s.targetPerSec), s.client + (s.label ? ` (${s.label})` : '') + (s.attempt > 1 ? ' (again)' : ''), `error: ${s.error}`, '', '', '', '', '', '', 'no']));
    else lines.push(row([n(s.targetPerSec), s.client + (s.label ? ` (${s.label})` : '') + (s.attempt > 1 ? ' (again)' : ''), n(s.receivedPerSec), n(s.p50Ms, 1), n(s.p99Ms, 1), n(s.missedSlots), n(s.lost), n(s.cpuSecPer1000, 3), n(s.hubCpuSecPer1000, 3), verdict(s)]));
  }
  if (t.tail) lines.push(...tailRounds(t.tail));
  const f = t.fixedRate;
  const firstFixed = Object.values(f).find((s) => s && !s.error);
  lines.push('', '## 2. Client CPU per message', '',
    `CPU seconds per 1,000 echo round trips at a fixed ${n(firstFixed?.targetPerSec)} msg/s (the first step above: ${t.connections} connections, one send every ${firstFixed?.intervalMs} ms each).`,
    '', row(['client', 'CPU s per 1,000', 'cores busy', 'of which', 'p99 ms', 'hub CPU s per 1,000']), row(['---', '---:', '---:', '---', '---:', '---:']));
  for (const client of CLIENTS) {
    const s = f[client];
    if (!s || s.error) {
      lines.push(row([CLIENT_NAMES[client], '–', '–', s?.error ?? 'not run', '–', '–']));
      continue;
    }
    const parts = Object.entries(s.cpuSec).filter(([k, v]) => k !== 'total' && v > 0.005).map(([k, v]) => `${k} ${n(v / s.measuredSec, 2)}`).join(', ');
    lines.push(row([CLIENT_NAMES[client], n(s.cpuSecPer1000, 3), n(s.cpuSec.total / s.measuredSec, 2), parts, n(s.p99Ms, 1), n(s.hubCpuSecPer1000, 3)]));
  }
  const tabCpu = f.tab?.cpuSecPer1000;
  if (tabCpu) lines.push('', `Per message, the tab uses ${n(tabCpu / f.browserRaw?.cpuSecPer1000, 2)}× the CPU of raw WebSockets in the same browser` +
    (f.browserLibrary?.cpuSecPer1000 ? ` (plain @microsoft/signalr there: ${n(f.browserLibrary.cpuSecPer1000 / f.browserRaw?.cpuSecPer1000, 2)}×)` : '') +
    `, ${n(tabCpu / f.library?.cpuSecPer1000, 1)}× the plain-library Node script's and ${n(tabCpu / f.raw?.cpuSecPer1000, 1)}× the raw Node client's.`);
  lines.push('');
  if (CLIENTS.includes('library') && RUNNER_CLIENTS.some((r) => CLIENTS.includes(r))) lines.push(...runnerPairs(t, CLIENTS));
  return lines;
}

/** The tail goal's rounds at half the browser's ceiling: every round's p99, and the medians the goal reads. */
function tailRounds(tail) {
  const lines = ['', `**The tail at half the browser's ceiling**: ${n(tail.targetPerSec)} msg/s (half of raw WebSockets' ${n(tail.ceilingPerSec)}), ` +
    `each client in turn, ${tail.rounds} rounds. The goal is read on the medians; "resampled" is the middle 95% of that ratio when each side's rounds are ` +
    'drawn again with replacement (5,000 times, `bench/tool/lib/rounds.mjs`): how far the rounds alone move it.', '',
    row(['client', 'p99 ms, round by round', 'median p99 ms', 'rounds failed', `÷ ${tail.baseline} (resampled)`]), row(['---', '---', '---:', '---:', '---:'])];
  for (const c of tail.summary) {
    lines.push(row([c.client, c.p99sMs.map((v) => n(v, 1)).join(', '), n(c.medianP99Ms, 1), `${c.failedRounds} of ${tail.rounds}`,
      c.againstBaseline ? `${n(c.againstBaseline.ratio, 2)}× (${n(c.againstBaseline.low, 2)}–${n(c.againstBaseline.high, 2)})` : '–']));
  }
  return lines;
}

/** The runner beside the plain-library script at every step both ran: ratios from back-to-back runs. */
function runnerPairs(t, clients) {
  const lines = ['## 2b. Headless runner beside the plain-library script', '',
    'Each step\'s runs follow one another within a minute, so each ratio compares runs under the same machine load. ' +
      'Ratios are runner ÷ script (CPU per 1,000 round trips, p99); missed slots are counts out of the sends of each run. The last attempt of each step is shown. ' +
      'The control is the same script run again at the same step (`libraryAgain`): what a ratio reads when nothing differs.', '',
    row(['target msg/s', 'runner', 'CPU s per 1,000 (runner / script)', 'ratio', 'control: script again ÷ script', 'missed slots (runner / script / again)', 'p99 ms (runner / script)', 'both hold']),
    row(['---:', '---', '---:', '---:', '---:', '---:', '---:', '---'])];
  const last = (client, s) => t.steps.filter((x) => x.client === client && x.intervalMs === s.intervalMs && !x.error).at(-1);
  for (const script of t.steps.filter((s) => s.client === 'library' && !s.error)) {
    if (last('library', script) !== script) continue;
    for (const client of RUNNER_CLIENTS.filter((r) => clients.includes(r))) {
      const r = last(client, script);
      if (!r) continue;
      const again = last('libraryAgain', script);
      lines.push(row([n(script.targetPerSec), client === 'runner' ? '2 threads' : '1 thread', `${n(r.cpuSecPer1000, 3)} / ${n(script.cpuSecPer1000, 3)}`,
        r.cpuSecPer1000 && script.cpuSecPer1000 ? `${n(r.cpuSecPer1000 / script.cpuSecPer1000, 2)}×` : '–',
        again?.cpuSecPer1000 && script.cpuSecPer1000 ? `${n(again.cpuSecPer1000 / script.cpuSecPer1000, 2)}×` : '–',
        `${n(r.missedSlots)} / ${n(script.missedSlots)} / ${n(again?.missedSlots)}`,
        `${n(r.p99Ms, 1)} / ${n(script.p99Ms, 1)}`, r.holds && script.holds ? 'yes' : `runner ${r.holds ? 'holds' : 'fails'}, script ${script.holds ? 'holds' : 'fails'}`]));
    }
  }
  lines.push('');
  return lines;
}

const LATENCY_CLIENTS = [['tab', 'tab (the tool)'], ['browserRaw', 'same browser, raw WebSockets'], ['browserLibrary', 'same browser, plain @microsoft/signalr'], ['raw', 'Node, raw WebSockets']];

function latencySection(l) {
  const lines = ['## 3. Latency truth at low load', '',
    `${l.load.connections} WebSocket connections (JSON) echoing 2,048 B once a second for ${l.load.durationSec} s (first ${l.load.warmupSec} s left out), ` +
      'from each client in turn, each under its own tshark capture on loopback, paired message by message (`sender:seq`). ' +
      '*Reported* is what the client says (from the planned time); *wire* is the hub\'s round trip (Echo frame to its Measure frame); ' +
      '*overhead* = reported − wire. The overhead splits into the *timer* (planned time to the send call: the client writes it into each payload header), ' +
      'the *way out* (send call to the Echo frame on the wire) and the *way in* (Measure frame on the wire to the handler: reported − "planned → Measure frame").', '',
    row(['client', 'reported p50 / p99 ms', 'wire p50 / p99 ms', 'overhead p50 / p99 ms', 'timer p50 / p99 ms', 'way out p50 / p99 ms', 'way in p50 / p99 ms', 'messages (paired)']),
    row(['---', '---:', '---:', '---:', '---:', '---:', '---:', '---:'])];
  const pair = (a, b, digits = 2) => `${n(a, digits)} / ${n(b, digits)}`;
  for (const [key, label] of LATENCY_CLIENTS) {
    const c = l.clients?.[key];
    if (!c) continue;
    const w = c.wire;
    lines.push(row([label, pair(c.p50Ms, c.p99Ms), w ? pair(w.rtt.p50Ms, w.rtt.p99Ms) : '', w ? pair(c.overheadMs.p50, c.overheadMs.p99) : '',
      w ? pair(w.timer.p50Ms, w.timer.p99Ms) : '', w ? pair(w.wayOut.p50Ms, w.wayOut.p99Ms) : '', w ? pair(c.wayInMs.p50, c.wayInMs.p99) : '',
      `${n(c.received)}${w ? ` (${n(w.matched)})` : ''}`]));
  }
  lines.push('');
  const { tab, browserRaw } = l.clients ?? {};
  if (tab?.wire && browserRaw?.wire) {
    lines.push(`**The tool's own overhead** over the hub's round trip is ${n(tab.overheadMs.p50, 2)} ms at p50. Raw WebSockets in the same browser, on the same schedule, ` +
      `pay ${n(browserRaw.overheadMs.p50, 2)} ms: that is this browser's floor (its timer ${n(browserRaw.wire.timer.p50Ms, 2)} ms, way out ${n(browserRaw.wire.wayOut.p50Ms, 2)} ms, ` +
      `way in ${n(browserRaw.wayInMs.p50, 2)} ms at p50). Above the floor the tab adds ${n(tab.overheadMs.p50 - browserRaw.overheadMs.p50, 2)} ms at p50 ` +
      `and ${n(tab.overheadMs.p99 - browserRaw.overheadMs.p99, 2)} ms at p99. Clock check: the earliest send path is ${n(tab.wire.sendPath.minMs, 3)} ms for the tab and ` +
      `${n(browserRaw.wire.sendPath.minMs, 3)} ms for raw WebSockets (the page's clock and the capture's agree when it is small and not negative). ` +
      `Echo frames without a Measure frame in the captures: ${LATENCY_CLIENTS.map(([key]) => n(l.clients[key]?.wire?.unanswered ?? 0)).join(', ')}.`, '');
  } else {
    lines.push('tshark was not available, so there is no wire capture in this run: the raw clients are the reference.', '');
  }
  return lines;
}

function rampSection(r) {
  const lines = ['## 4. Ramp-up', '', `Time from Start to ${r.connections} open WebSockets (every worker ready), in the tab, with the default pacing and with all connects at once.`, '',
    row(['connects in flight', 'time to open (ms), each run', 'mean ms', 'opened']), row(['---:', '---', '---:', '---'])];
  for (const s of r.summary) lines.push(row([n(s.connectConcurrency), s.rampMs.map((v) => n(v)).join(', '), n(s.meanRampMs), s.opened.join(', ')]));
  lines.push('');
  return lines;
}

function dashboardSection(d) {
  const lines = ['## 5. Dashboard cost', '',
    `${d.load.connections} WebSocket connections in ${d.load.workers} Web Workers echoing 2 KB every ${d.load.intervalMs} ms (${n((d.load.connections * 1_000) / d.load.intervalMs)} msg/s) for ${n(d.load.durationSec / 60)} min, every chart live. ` +
      'Main-thread busy share = CPU time of the renderer\'s main thread (from /proc) over wall time.', '',
    `Over the whole run: main thread busy **${pct(d.mainBusyShare, 1)}**; the four workers ${n(d.workersCores, 2)} cores; the network service ${n(d.networkCores, 2)} cores; all of Chromium ${n(d.browserCores, 2)} cores. ` +
      `Long tasks (≥ 50 ms) on the main thread since the page loaded: ${n(d.longTasks.count)}, ${n(d.longTasks.totalMs)} ms in all, the longest ${n(d.longTasks.maxMs)} ms. ` +
      `The run itself: p99 ${n(d.run.p99Ms, 1)} ms, ${n(d.run.received)} received, ${n(d.run.lost)} lost, ${n(d.run.missedSlots)} missed slots.` +
      (d.flatness ? ` Does the cost grow with the run? First minute ${pct(d.flatness.firstShare, 1)}, last minute ${pct(d.flatness.lastShare, 1)}; the least-squares trend over every minute is ${d.flatness.slopePointsPer10Min >= 0 ? '+' : ''}${n(d.flatness.slopePointsPer10Min, 2)} percentage points per 10 minutes.` : ''), '',
    row(['minute', 'main thread busy', 'workers (cores)', 'all Chromium (cores)']), row(['---:', '---:', '---:', '---:'])];
  for (const m of d.minutes) lines.push(row([m.minute, pct(m.mainBusyShare, 1), n(m.workersCores, 2), n(m.browserCores, 2)]));
  lines.push('');
  return lines;
}

function transportSection(t) {
  const lines = ['## 6. Transports and protocols', '',
    `The same echo load, ${t.load.connections} connections × 2,048 B every ${t.load.intervalMs} ms (${n((t.load.connections * 1_000) / t.load.intervalMs)} msg/s), from the tab over the hub's HTTPS listener ` +
      '(HTTP/2 for SSE and long polling, so they are not held to 6 connections; WebSockets over TLS). Server-Sent Events carry text only, so not MessagePack.', '',
    row(['transport', 'protocol', 'received/s', 'p50 ms', 'p99 ms', 'p99.9 ms', 'lost', 'browser CPU s per 1,000', 'hub CPU s per 1,000', 'holds']),
    row(['---', '---', '---:', '---:', '---:', '---:', '---:', '---:', '---:', '---'])];
  for (const s of t.rows) {
    if (s.error) lines.push(row([s.transport, s.protocol, `error: ${s.error}`, '', '', '', '', '', '', 'no']));
    else lines.push(row([s.transport, s.protocol, n(s.receivedPerSec), n(s.p50Ms, 2), n(s.p99Ms, 1), n(s.p999Ms, 1), n(s.lost), n(s.cpuSecPer1000, 3), n(s.hubCpuSecPer1000, 3), verdict(s)]));
  }
  lines.push('');
  return lines;
}

const verdict = (s) => (s.holds ? 'yes' : `**no**: ${s.failures.join(', ')}`);
