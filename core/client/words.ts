/**
 * The client room's words: why a connect failed, by cause, and the client's own limits, each
 * reason worded to follow "the client …". connect-causes.ts and own-limits.ts name the cause and
 * count it; only this file writes prose, so the run's limit, a capacity step and the diagnosis
 * quote the same sentence. Pure.
 */
import { formatCount } from '../format.ts';

/** "1 connection", "3 connections". */
const connectionsText = (count: number) => `${formatCount(count)} connection${count === 1 ? '' : 's'}`;

export const CLIENT_WORDS = {
  /** Each connect cause (ConnectCause), worded to follow a count: "19 EMFILE: …". */
  connectCauses: (p: { starvedPercent: number }) => ({
    EMFILE: 'EMFILE: this process ran out of file descriptors',
    ENFILE: 'ENFILE: the system ran out of file descriptors',
    EADDRNOTAVAIL: 'EADDRNOTAVAIL: no ephemeral port was free for this destination',
    ENOBUFS: 'ENOBUFS: the system ran out of socket buffers',
    ENOMEM: 'ENOMEM: the system ran out of socket memory',
    EAGAIN: 'EAGAIN: the system could not take another connect now',
    browserQueue: 'held in the browser\'s connection queue until the connect time limit',
    clientStarved: `timed out while this client's own event loop was stalled for over ${formatCount(p.starvedPercent)}% of the connect time limit`,
    negotiationSkipped: 'refused the WebSocket opened without negotiate (this hub needs negotiation: leave --skip-negotiation off)',
    refused: 'refused with ECONNREFUSED',
    reset: 'reset by the other end',
    timedOut: 'not answered within the connect time limit',
    stoppedAnswering: 'not tried or given up because the hub had stopped answering connects',
    unreachable: 'the host or network was unreachable',
    httpStatus: 'answered with an HTTP error status',
    addressRefused: 'refused by the address itself (HTTP 4xx: no hub at that path, or it wants a token)',
    other: 'for a reason the error does not say',
  }),
  /** Engines (threads, Web Workers, agents' threads) of the client's own lost mid-run. */
  lostEngines: (p: { lost: number; engines: number; why?: string }) =>
    `lost ${formatCount(p.lost)} of its ${formatCount(p.engines)} engine${p.engines === 1 ? '' : 's'} mid-run${p.why ? ` (${p.why})` : ''}, and the load they carried with them`,
  ownResources: (p: { failed: number; causes: string }) =>
    `could not open ${connectionsText(p.failed)} for want of its own resources (${p.causes})`,
  negotiationSkipped: (p: { failed: number }) =>
    `could not open ${connectionsText(p.failed)} with its own settings: the hub refused WebSockets opened without negotiate (it needs negotiation: leave --skip-negotiation off)`,
  aboveBrowserCap: (p: { connections: number; cap: number; failed: number }) =>
    `asked for ${formatCount(p.connections)} connections, above the ${formatCount(p.cap)} this browser allows, and ${formatCount(p.failed)} failed to open`,
};
