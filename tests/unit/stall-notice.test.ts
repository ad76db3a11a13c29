/** The runner's word while nothing has opened: from the evidence so far, never "stalled" after refusals. */
import { describe, expect, it } from 'vitest';
import { stallNotice } from '../../cli/report.ts';

const url = 'http://127.0.0.1:7301/signalrbench';

describe('stallNotice', () => {
  it('says refused when the connects were refused', () => {
    const notice = stallNotice({ message: `WebSockets (json) to ${url}: Failed to complete negotiation with the server: TypeError: fetch failed (ECONNREFUSED: connect ECONNREFUSED 127.0.0.1:7301)` }, url, 3_000);
    expect(notice).toBe(`live-bench: no connection has opened after 3 s of connecting: the connects to ${url} are refused. Nothing accepts connections there: check the URL and port, and that the hub is running.`);
    expect(notice).not.toMatch(/stalled/);
  });

  it('points at the first error for other failures, and names a possible stall only when nothing answered', () => {
    expect(stallNotice({ message: 'This is not a SignalR hub at this URL' }, url, 3_000)).toMatch(/fail \(the first error above says why\)\.$/);
    expect(stallNotice(undefined, url, 3_000)).toMatch(/still waiting for .* to answer\. The hub may be stalled or unreachable; with no answer within 12 s of the first connect the run gives up\.$/);
  });
});
