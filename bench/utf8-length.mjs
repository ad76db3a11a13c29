// What counting a frame's bytes costs (signalr/wire-bytes.ts utf8Length): the UTF-8 length of a
// text frame as the runner's transport hands it over, by each way there is to take it, in ns a
// call. The frame is an echo of the tool's text as the hub sends it back (JSON protocol: the
// invocation around a text of --chars characters, all ASCII), and a text of as many UTF-16 units
// that is not ASCII (a hub's own words: é € 😀), each way checked against TextEncoder first.
//
//   node bench/utf8-length.mjs [--chars 2048] [--calls 200000] [--rounds 7]
//
// Each way runs --rounds times over --calls calls, on 256 distinct flat strings (as JSON.parse or
// the WebSocket hands them over), in turns so that a busy machine slows them alike; the table
// gives each way's median and fastest round. Ways:
// - Buffer.byteLength: Node's, native, no copy (what the runner uses: utf8Length in Node);
// - encodeInto: TextEncoder.encodeInto into one kept buffer (what browsers use: encodeIntoLength);
// - charCodeAt loop: the length counted in JavaScript, surrogate pairs as 4 bytes, lone ones as 3;
// - TextEncoder.encode: a new Uint8Array of the bytes, then its length.
import { build } from 'rolldown';
import { mkdtemp, writeFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const at = args.indexOf(name);
  return at >= 0 ? Number(args[at + 1]) : fallback;
};
const chars = option('--chars', 2048);
const calls = option('--calls', 200_000);
const rounds = option('--rounds', 7);
const DISTINCT = 256;

// The sources' own functions, bundled as bench/receive-path.mjs does.
const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const dir = await mkdtemp(path.join(os.tmpdir(), 'utf8-length-'));
const entry = path.join(dir, 'entry.ts');
await writeFile(entry, `export { utf8Length, encodeIntoLength } from '${root}/signalr/wire-bytes.ts';\n`);
await build({ input: entry, platform: 'node', logLevel: 'silent', output: { file: path.join(dir, 'bundle.mjs'), format: 'esm' } });
const { utf8Length, encodeIntoLength } = await import(path.join(dir, 'bundle.mjs'));
await rm(dir, { recursive: true, force: true });

/** UTF-8 length counted in JavaScript, as TextEncoder writes it (a lone surrogate as U+FFFD: 3). */
function charCodeAtLength(text) {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) bytes += 1;
    else if (c < 0x800) bytes += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes;
}
const encoder = new TextEncoder();
const encodeLength = (text) => encoder.encode(text).byteLength;

const WAYS = [
  ['Buffer.byteLength (utf8Length in Node)', utf8Length],
  ['TextEncoder.encodeInto, kept buffer (encodeIntoLength)', encodeIntoLength],
  ['charCodeAt loop', charCodeAtLength],
  ['TextEncoder.encode', encodeLength],
];

/** Flat strings, as JSON.parse or the WebSocket's decoder hands them over. */
const flat = (text) => JSON.parse(JSON.stringify(text));
const runId = 'k3f9x0qa';
const ascii = Array.from({ length: DISTINCT }, (_, i) => {
  const head = `${runId}:${i}:${i * 7}:12:${1_765_000_000_000_000 + i}|`;
  const text = head + 'x'.repeat(Math.max(0, chars - head.length));
  return flat(`{"type":1,"target":"Measure","arguments":[${1_765_000_000_000_000 + i},"${text}"]}\u001e`);
});
const mixedUnit = 'é€😀 ';
const mixed = Array.from({ length: DISTINCT }, (_, i) => flat(`${i}: ${mixedUnit.repeat(Math.ceil(chars / mixedUnit.length))}`.slice(0, chars)));

const TEXTS = [
  [`echo frame, ASCII (${ascii[0].length} chars, ${encodeLength(ascii[0])} B)`, ascii],
  [`non-ASCII text (${mixed[0].length} units, ${encodeLength(mixed[0])} B)`, mixed],
];

let sink = 0;
const results = [];
for (const [textName, texts] of TEXTS) {
  for (const [name, length] of WAYS) {
    for (const text of texts) if (length(text) !== encodeLength(text)) throw new Error(`${name} counts ${length(text)} B for a text TextEncoder writes in ${encodeLength(text)}`);
  }
  const times = WAYS.map(() => []);
  for (let round = 0; round < rounds + 1; round++) {
    WAYS.forEach(([, length], w) => {
      const start = process.hrtime.bigint();
      for (let i = 0; i < calls; i++) sink += length(texts[i & (DISTINCT - 1)]);
      const ns = Number(process.hrtime.bigint() - start) / calls;
      // The first round warms the code up.
      if (round > 0) times[w].push(ns);
    });
  }
  WAYS.forEach(([name], w) => {
    const sorted = times[w].sort((a, b) => a - b);
    const median = sorted[Math.floor(sorted.length / 2)];
    results.push({ text: textName, way: name, 'ns a call (median)': format(median), 'fastest round': format(sorted[0]) });
  });
}
console.log(`UTF-8 length of a text frame, ${calls.toLocaleString('en')} calls a round, ${rounds} rounds, Node ${process.version}, load ${os.loadavg().map((l) => l.toFixed(2)).join(' ')} (${sink.toExponential(3)} B counted)`);
console.table(results);

function format(ns) {
  return ns >= 1000 ? `${(ns / 1000).toFixed(2)} µs` : `${ns.toFixed(0)} ns`;
}
