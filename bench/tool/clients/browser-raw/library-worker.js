// One worker of the same-browser plain-library client (index.html?client=library): what the
// @microsoft/signalr docs show, as the Node library script does (withUrl, on('Measure'), start,
// send('Echo', …)), WebSockets only; the schedule and accounting are worker-core.js's. It tells
// the library's own cost in a browser apart from the dashboard's engine.
import { HttpTransportType, HubConnectionBuilder, LogLevel } from './signalr/index.js';
import { measured, nowUs, received, serve } from './worker-core.js';

async function connect(index, load) {
  const hub = new HubConnectionBuilder()
    .withUrl(load.endpointUrl, { transport: HttpTransportType.WebSockets })
    .configureLogging(LogLevel.None)
    .build();
  hub.on('Measure', (ts, payload) => {
    const atUs = nowUs();
    if (!measured(ts)) return;
    received(atUs, ts, Number(payload.slice(0, payload.indexOf('|')).split(':')[3]));
  });
  await hub.start();
  return hub;
}

serve({
  connect,
  echo: (hub, plannedUs, payload) => void hub.send('Echo', plannedUs, payload).catch(() => {}),
  close: (hub) => void hub.stop(),
});
