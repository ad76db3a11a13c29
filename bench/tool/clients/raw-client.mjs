// The leanest client we can write, the practical limit: raw WebSockets (the `ws` package)
// speaking SignalR's JSON hub protocol by hand. Negotiate, the JSON handshake, then invocation
// frames; an incoming frame is read only as far as the timestamp and payload.
// Protocol: https://github.com/dotnet/aspnetcore/blob/main/src/SignalR/docs/specs/HubProtocol.md
import WebSocket from 'ws';
import { optionsFromArgv, runEchoLoad } from './open-loop.mjs';

const RS = '\x1e';
const options = optionsFromArgv();
const endpoint = new URL(options.endpointUrl);
const MEASURE_PREFIX = '{"type":1,"target":"Measure","arguments":[';

/** Reads Measure(ts, payload) from one JSON frame without a general JSON parse; other frames (pings) are skipped. */
function readMeasure(frame, onMeasure) {
  if (!frame.startsWith(MEASURE_PREFIX)) return;
  const comma = frame.indexOf(',', MEASURE_PREFIX.length);
  const ts = Number(frame.slice(MEASURE_PREFIX.length, comma));
  // The payload is ASCII without quotes or backslashes: it ends at the next quote.
  const start = comma + 2;
  onMeasure(ts, frame.slice(start, frame.indexOf('"', start)));
}

await runEchoLoad('raw', async (_index, onMeasure) => {
  const negotiate = await fetch(`${endpoint.origin}${endpoint.pathname}/negotiate?negotiateVersion=1`, { method: 'POST' });
  if (!negotiate.ok) throw new Error(`negotiate answered ${negotiate.status}`);
  const { connectionToken } = await negotiate.json();
  const wsUrl = `${endpoint.origin.replace(/^http/, 'ws')}${endpoint.pathname}?id=${encodeURIComponent(connectionToken)}`;
  const socket = new WebSocket(wsUrl);
  await new Promise((resolve, reject) => {
    socket.once('error', reject);
    socket.once('open', () => socket.send(`{"protocol":"json","version":1}${RS}`));
    socket.once('message', (data) => {
      const text = data.toString();
      if (text.startsWith(`{}${RS}`)) resolve();
      else reject(new Error(`handshake refused: ${text}`));
    });
  });
  socket.on('message', (data) => {
    const text = data.toString();
    let start = 0;
    for (let end = text.indexOf(RS); end >= 0; start = end + 1, end = text.indexOf(RS, start)) readMeasure(text.slice(start, end), onMeasure);
  });
  return {
    send: (ts, payload) => socket.send(`{"type":1,"target":"Echo","arguments":[${ts},"${payload}"]}${RS}`),
    stop: () => new Promise((resolve) => {
      socket.once('close', resolve);
      socket.close(1000);
    }),
  };
}, options);
