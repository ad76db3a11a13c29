/**
 * The sizing room's words: where the measured agent's figures come from, and the head of the
 * sizing table docs/sizing.md prints. fleet-sizing.ts computes the rows; this file names them. Pure.
 */
export const SIZING_WORDS = {
  /** The runs behind MEASURED_AGENT, as bench/RESULTS.md records them. */
  measuredSource: () =>
    'bench/RESULTS.md: `bash bench/headless-10k.sh 25000` on 2026-11-28 (25,000 WebSockets over 2 engine processes, 638-652 MB peak RSS) and the runner\'s `--find-capacity --ramp rate` on 2026-11-24 (7,570 msg/s received, as many sent)',
  /** The Markdown table's head row, its columns in the order the rows fill them. */
  tableHead: () =>
    '| scenario | tier | connections | clients send msg/s | clients receive msg/s | agents | set by | cores | memory GB | snapshots/s | control hub msg/s | one control hub |',
};
