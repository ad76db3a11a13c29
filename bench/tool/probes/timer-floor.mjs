// How late a timer in a Web Worker fires at best: the floor under every browser client's send
// path on a fixed schedule. A worker arms 200 timers one after another, each for a planned time
// 20.37–21.27 ms ahead (a fractional part, as the open loop's slots have; over 4 ms, so the HTML
// nesting clamp does not apply), and records fire time − planned time, with setTimeout and with
// scheduler.postTask, asking the fractional delay and the delay rounded up to whole ms.
// No WebSockets are open, so driving the page through Playwright adds nothing to what is timed.
//   node bench/tool/probes/timer-floor.mjs
import { chromium } from 'playwright-core';
import { CHROMIUM_PATH } from '../lib/chromium.mjs';

const WORKER = `
async function measure(arm) {
  const lagsMs = [];
  for (let i = 0; i < 200; i++) {
    const plannedMs = performance.now() + 20.37 + (i % 10) * 0.1;
    await new Promise((resolve) => arm(() => { lagsMs.push(performance.now() - plannedMs); resolve(); }, plannedMs - performance.now()));
  }
  lagsMs.sort((a, b) => a - b);
  const at = (q) => Number(lagsMs[Math.min(lagsMs.length - 1, Math.ceil(q * lagsMs.length) - 1)].toFixed(2));
  return { minMs: Number(lagsMs[0].toFixed(2)), p50Ms: at(0.5), p90Ms: at(0.9), maxMs: Number(lagsMs.at(-1).toFixed(2)), early: lagsMs.filter((v) => v < 0).length };
}
(async () => {
  const out = {};
  out['setTimeout, fractional delay'] = await measure((f, d) => setTimeout(f, d));
  out['setTimeout, delay rounded up (the open loop)'] = await measure((f, d) => setTimeout(f, Math.ceil(d)));
  out['scheduler.postTask, fractional delay'] = await measure((f, d) => scheduler.postTask(f, { delay: d }));
  out['scheduler.postTask, delay rounded up'] = await measure((f, d) => scheduler.postTask(f, { delay: Math.ceil(d) }));
  postMessage(out);
})();`;

const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: ['--no-sandbox'] });
try {
  const page = await browser.newPage();
  await page.route('http://probe.test/**', (route) => route.request().url().endsWith('/w.js')
    ? route.fulfill({ contentType: 'text/javascript', body: WORKER })
    : route.fulfill({ contentType: 'text/html', body: '<title>timer floor</title>' }));
  await page.goto('http://probe.test/');
  const results = await page.evaluate(() => new Promise((resolve) => { new Worker('/w.js').onmessage = (e) => resolve(e.data); }));
  console.log('| timer | min ms | p50 ms | p90 ms | max ms | fired early (of 200) |\n| --- | ---: | ---: | ---: | ---: | ---: |');
  for (const [name, r] of Object.entries(results)) console.log(`| ${name} | ${r.minMs} | ${r.p50Ms} | ${r.p90Ms} | ${r.maxMs} | ${r.early} |`);
} finally {
  await browser.close();
}
