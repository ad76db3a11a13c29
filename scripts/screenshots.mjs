/**
 * Retakes the documentation's pictures from the current page, so they can be retaken after each
 * change (`npm run screenshots`, which builds the dashboard first; the hub-sample must be built).
 * It starts its own hub-sample (scripts/hub.mjs), drives the dashboard in Chromium through
 * playwright-core and saves:
 * - docs/dashboard.png: a finished 200-connection echo run over WebSockets + MessagePack, 1440x900;
 * - docs/presentation.png: that run in presentation mode, 1280x720;
 * - docs/capacity.png: the answer at the top of the Live page (what held, where it broke, the step
 *   chart) after a short capacity search against a hub limited to 270 msg/s, 1440 px wide;
 * - docs/your-hub.png: the form on "Your hub" with the chat rooms example and, under it, its
 *   finished run against the hub-sample's chat hub, 1280x720.
 * Names given (`node scripts/screenshots.mjs your-hub`) retake only those: dashboard (with the
 * presentation), capacity, your-hub.
 * Each picture's page is also saved at the four sizes people use (1280x720, 1440x900, 1920x1080
 * and 390x844) into test-results/screenshots/docs/, to look at before a picture goes in the docs;
 * a page wider than its window at one of them is named on stderr.
 * Pictures only: Playwright watches every WebSocket frame and costs the browser several times its
 * own CPU, so nothing taken here is a measurement (bench/ measures).
 */
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './chromium.mjs';
import { REPO_ROOT, startHub } from './hub.mjs';

const DOCS_DIR = path.join(REPO_ROOT, 'docs');
const SIZES_DIR = path.join(REPO_ROOT, 'test-results', 'screenshots', 'docs');
/** The sizes each picture's page is looked at: a laptop, a desktop, a projector, a phone. */
const SIZES = [{ width: 1280, height: 720 }, { width: 1440, height: 900 }, { width: 1920, height: 1080 }, { width: 390, height: 844 }];
const WIDE = { width: 1440, height: 900 };
const PROJECTOR = { width: 1280, height: 720 };
/** Messages per second the capacity picture's hub delivers promptly (hub-sample/DeliveryLimit.cs). */
const CAPACITY_LIMIT_PER_S = 270;

function checkBuilt() {
  const problems = [];
  if (!existsSync(path.join(REPO_ROOT, 'dist/index.html'))) problems.push("The dashboard is not built (dist/index.html is missing): run 'npx vite build' first, or 'npm run screenshots', which does.");
  if (!existsSync(CHROMIUM_PATH)) problems.push(`Chromium is not at ${CHROMIUM_PATH}: install it ('apt-get install -y chromium') or set CHROMIUM_PATH.`);
  if (problems.length > 0) {
    for (const problem of problems) console.error(problem);
    process.exit(2);
  }
}

/** A fresh Chromium profile on a page of `hub`; closes both in `close()`. */
async function openDashboard(hubUrl, viewport) {
  const profile = await mkdtemp(path.join(os.tmpdir(), 'live-bench-screenshots-'));
  const context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS, viewport });
  const page = await context.newPage();
  await page.goto(hubUrl);
  await page.getByTestId('start').waitFor();
  return {
    page,
    close: async () => {
      await context.close();
      await rm(profile, { recursive: true, force: true });
    },
  };
}

/** Saves what `target` (a page, or one element of it) shows into docs/`name`. */
async function save(target, name) {
  const file = path.join(DOCS_DIR, name);
  await target.screenshot({ path: file });
  console.log(`saved ${path.relative(REPO_ROOT, file)}`);
}

/**
 * The page as it stands at each of SIZES, into SIZES_DIR as `name`-WxH.png, then back at
 * `viewport`; `scrollTop` puts the page back at its top first (not in the presentation, which
 * covers it). Says on stderr where the page scrolls sideways.
 */
async function atEverySize(page, name, viewport, scrollTop = true) {
  await mkdir(SIZES_DIR, { recursive: true });
  for (const size of SIZES) {
    await page.setViewportSize(size);
    await page.waitForTimeout(500);
    if (scrollTop) await page.evaluate(() => window.scrollTo(0, 0));
    const file = path.join(SIZES_DIR, `${name}-${size.width}x${size.height}.png`);
    await page.screenshot({ path: file });
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    if (overflow > 0) console.error(`${name} at ${size.width}x${size.height} is ${overflow} px wider than its window.`);
  }
  console.log(`saved ${path.relative(REPO_ROOT, SIZES_DIR)}/${name}-*.png at ${SIZES.map((s) => `${s.width}x${s.height}`).join(', ')}`);
  await page.setViewportSize(viewport);
  await page.waitForTimeout(500);
}

/** The finished echo run, then the same run presented. */
async function echoRun() {
  const hub = await startHub();
  const { page, close } = await openDashboard(hub.httpUrl, WIDE);
  try {
    await page.selectOption('select[name=scenario]', 'echo');
    await page.selectOption('select[name=transport]', 'WebSockets');
    await page.selectOption('select[name=protocol]', 'messagepack');
    await page.fill('input[name=connections]', '200');
    await page.fill('input[name=sendIntervalMs]', '1000');
    await page.fill('input[name=durationSec]', '15');
    await page.getByTestId('start').click();
    await page.waitForSelector('[data-testid=run-bar][data-phase=done]', { timeout: 120_000 });
    // Let the charts draw their last second before the picture.
    await page.waitForTimeout(1_500);
    await page.evaluate(() => window.scrollTo(0, 0));
    await save(page, 'dashboard.png');
    await atEverySize(page, 'dashboard', WIDE);

    await page.setViewportSize(PROJECTOR);
    await page.getByTestId('nav-present').click();
    await page.getByTestId('presentation').waitFor();
    await page.waitForTimeout(1_500);
    await save(page, 'presentation.png');
    await atEverySize(page, 'presentation', PROJECTOR, false);
  } finally {
    await close();
    await hub.stop();
  }
}

/** A short capacity search (rate ramp, 20 connections) against a hub that breaks at a known rate. */
async function capacitySearch() {
  const hub = await startHub({ extraArgs: ['--EnableTestHubs', 'true', '--TestMessageRateLimit', String(CAPACITY_LIMIT_PER_S)] });
  const { page, close } = await openDashboard(hub.httpUrl, WIDE);
  try {
    await page.fill('input[name=connections]', '20');
    await page.getByTestId('mode-find-capacity').click();
    await page.getByTestId('capacity-ramp').selectOption('rate');
    for (const [field, value] of [['start', '100'], ['step', '100'], ['max', '400'], ['step-sec', '5'], ['settle-sec', '1'], ['bisect', '1']]) {
      await page.getByTestId(`capacity-${field}`).fill(value);
    }
    await page.getByTestId('find-capacity-start').click();
    await page.getByTestId('capacity-export-json').waitFor({ timeout: 240_000 });
    await page.waitForTimeout(1_500);
    // The answer as the page shows it first: what held, where it broke, the step chart.
    await save(page.locator('section:has(> [data-testid=capacity-stage])'), 'capacity.png');
    await atEverySize(page, 'capacity', WIDE);
  } finally {
    await close();
    await hub.stop();
  }
}

/** The chat rooms example pasted into "Your hub", run for 3 s against the chat hub of its shape. */
async function yourHub() {
  const hub = await startHub({ extraArgs: ['--EnableTestHubs', 'true'] });
  const { page, close } = await openDashboard(hub.httpUrl, PROJECTOR);
  try {
    await page.fill('input[name=endpointUrl]', `${hub.httpUrl}/chathub`);
    await page.selectOption('select[name=scenario]', 'yourHub');
    await page.getByTestId('hub-profile-text').fill(readFileSync(path.join(REPO_ROOT, 'profiles/chat-rooms.json'), 'utf8'));
    await page.fill('input[name=connections]', '40');
    await page.fill('input[name=durationSec]', '3');
    await page.getByTestId('start').click();
    await page.waitForSelector('[data-testid=run-bar][data-phase=done]', { timeout: 60_000 });
    // The form reopens with the profile as one line: Edit shows the editor as it was filled.
    await page.getByTestId('hub-profile-edit').click();
    await page.evaluate(() => window.scrollTo(0, 0));
    await save(page, 'your-hub.png');
    await atEverySize(page, 'your-hub', PROJECTOR);
  } finally {
    await close();
    await hub.stop();
  }
}

const SHOTS = { dashboard: echoRun, capacity: capacitySearch, 'your-hub': yourHub };
const wanted = process.argv.slice(2);
const unknown = wanted.filter((name) => !(name in SHOTS));
if (unknown.length > 0) {
  console.error(`No picture named ${unknown.join(', ')}: the pictures are ${Object.keys(SHOTS).join(', ')}.`);
  process.exit(2);
}
checkBuilt();
for (const [name, take] of Object.entries(SHOTS)) if (wanted.length === 0 || wanted.includes(name)) await take();
