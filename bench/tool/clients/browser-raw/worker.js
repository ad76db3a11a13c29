// One worker of the raw browser client (index.html): raw WebSockets speaking SignalR's JSON
// protocol by hand; the schedule and accounting are worker-core.js's.
import { measured, nowUs, received, serve } from './worker-core.js';

const RS = '\x1e';
const MEASURE_PREFIX = '{"type":1,"target":"Measure","arguments":[';

async function connect(index, load) {
  const endpoint = new URL(load.endpointUrl);
  const negotiate = await fetch(`${endpoint.origin}${endpoint.pathname}/negotiate?negotiateVersion=1`, { method: 'POST' });
  const { connectionToken } = await negotiate.json();
  const socket = new WebSocket(`${endpoint.origin.replace(/^http/, 'ws')}${endpoint.pathname}?id=${encodeURIComponent(connectionToken)}`);
  await new Promise((resolve, reject) => {
    socket.onerror = () => reject(new Error('WebSocket error'));
    socket.onopen = () => socket.send(`{"protocol":"json","version":1}${RS}`);
    socket.onmessage = (e) => (String(e.data).startsWith(`{}${RS}`) ? resolve() : reject(new Error(`handshake refused: ${e.data}`)));
  });
  socket.onmessage = (e) => {
    const text = e.data;
    let start = 0;
    for (let end = text.indexOf(RS); end >= 0; start = end + 1, end = text.indexOf(RS, start)) receive(text.slice(start, end));
  };
  return socket;
}

function receive(frame) {
  const atUs = nowUs();
  if (!frame.startsWith(MEASURE_PREFIX)) return;
  const comma = frame.indexOf(',', MEASURE_PREFIX.length);
  const plannedUs = Number(frame.slice(MEASURE_PREFIX.length, comma));
  if (!measured(plannedUs)) return;
  const header = frame.slice(comma + 2, frame.indexOf('|', comma)).split(':');
  received(atUs, plannedUs, Number(header[3]));
}

serve({
  connect,
  echo: (socket, plannedUs, payload) => socket.send(`{"type":1,"target":"Echo","arguments":[${plannedUs},"${payload}"]}${RS}`),
  close: (socket) => socket.close(1000),
});
