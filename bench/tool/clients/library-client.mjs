// What a user would write instead of the tool: a plain Node script using @microsoft/signalr the
// way its documentation shows (HubConnectionBuilder, withUrl, on, start, send), one connection
// per simulated client, over WebSockets with the JSON protocol. The schedule and measurement
// are the tool's (open-loop.mjs). `skipNegotiation: true` in the load opens each WebSocket
// without negotiate, as the runner's --skip-negotiation does (bench/ramp-cost.sh compares both);
// `transport: "ServerSentEvents" | "LongPolling"` takes that transport instead (the connections
// benchmark's BENCH_TRANSPORT, as the runner's --transport).
import * as signalR from '@microsoft/signalr';
import { optionsFromArgv, runEchoLoad } from './open-loop.mjs';

const options = optionsFromArgv();

await runEchoLoad('library', async (_index, onMeasure) => {
  const connection = new signalR.HubConnectionBuilder()
    .withUrl(options.endpointUrl, { transport: signalR.HttpTransportType[options.transport ?? 'WebSockets'], skipNegotiation: options.skipNegotiation === true })
    .configureLogging(signalR.LogLevel.Error)
    .build();
  connection.on('Measure', onMeasure);
  await connection.start();
  return {
    send: (ts, payload) => void connection.send('Echo', ts, payload).catch(() => {}),
    stop: () => connection.stop(),
  };
}, options);
