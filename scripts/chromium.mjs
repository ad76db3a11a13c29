/**
 * Where Debian's Chromium is and the arguments every headless launch of it takes here (the browser
 * tests and the screenshot script), so the page looks and behaves the same in both. Playwright
 * cannot download its own browser on this kind of machine.
 */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  // The hub-sample's HTTPS listener (HTTP/2) uses a self-signed certificate.
  '--ignore-certificate-errors',
];
