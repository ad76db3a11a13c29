// Where a connection's heap goes: two V8 heap snapshots of the runner at two connection counts
// (same run settings), and the difference per connection by what each object is and what holds
// it, largest first. A closure is named by its source position (line:column, its script's id
// left out: ids differ between runs), a function's context by the closure that holds it, and an
// element or property store, a plain object, array or promise by its chain of first holders, so
// "(object properties) <- properties Object <- connection Object" says whose dictionary it is.
// Snapshots come from `node --heapsnapshot-signal=SIGUSR2 bin/live-bench.js --workers 1 ...` and
// `kill -USR2 <pid>` once the connections are open (V8 collects its garbage first); with one
// engine, the connections live in the runner's own heap. Each snapshot needs ~10x its size of
// memory to read: give node --max-old-space-size for large ones.
// Usage: node bench/heap-diff.mjs <fewer.heapsnapshot> <connections> <more.heapsnapshot> <connections> [rows] [holders]
//        (default 60 rows, chains of 2 holders)
import { readFileSync } from 'node:fs';

const [fewerPath, fewerCount, morePath, moreCount, rowsArg = '60', depthArg = '2'] = process.argv.slice(2);
if (!morePath || !(Number(moreCount) > Number(fewerCount))) {
  console.error('Usage: node bench/heap-diff.mjs <fewer.heapsnapshot> <connections> <more.heapsnapshot> <more connections> [rows] [holders]');
  process.exit(2);
}

/** Bytes and objects by label in one snapshot. */
function tally(path, depth) {
  const snapshot = JSON.parse(readFileSync(path, 'utf8'));
  const meta = snapshot.snapshot.meta;
  const { nodes, edges, strings } = snapshot;
  const nodeFields = meta.node_fields.length;
  const edgeFields = meta.edge_fields.length;
  const nodeTypes = meta.node_types[0];
  const edgeTypes = meta.edge_types[0];
  const edgeCountAt = meta.node_fields.indexOf('edge_count');
  const count = nodes.length / nodeFields;
  const type = (i) => nodeTypes[nodes[i * nodeFields]];
  const name = (i) => strings[nodes[i * nodeFields + 1]];
  const selfBytes = (i) => nodes[i * nodeFields + 3];
  const position = new Map();
  const locationFields = meta.location_fields.length;
  for (let k = 0; k < snapshot.locations.length; k += locationFields) {
    position.set(snapshot.locations[k] / nodeFields, `${snapshot.locations[k + 2] + 1}:${snapshot.locations[k + 3]}`);
  }
  // The first strong holder of each object, and the closure holding each context.
  const holder = new Int32Array(count).fill(-1);
  const holderEdge = new Array(count);
  const contextOwner = new Int32Array(count).fill(-1);
  for (let i = 0, edge = 0; i < count; i++) {
    const end = edge + nodes[i * nodeFields + edgeCountAt] * edgeFields;
    for (; edge < end; edge += edgeFields) {
      const edgeType = edgeTypes[edges[edge]];
      if (edgeType === 'weak') continue;
      const to = edges[edge + 2] / nodeFields;
      const edgeName = edgeType === 'element' || edgeType === 'hidden' ? edges[edge + 1] : strings[edges[edge + 1]];
      if (type(i) === 'closure' && edgeName === 'context' && contextOwner[to] < 0) contextOwner[to] = i;
      if (holder[to] < 0 && type(i) !== 'synthetic') {
        holder[to] = i;
        holderEdge[to] = `${edgeType}:${edgeName}`;
      }
    }
  }
  const label = (i) => (type(i) === 'closure' ? `closure ${name(i) || '(anon)'}@${position.get(i) ?? '?'}` : `${type(i)}:${name(i)}`);
  const chain = (i) => {
    const parts = [];
    for (let j = i, k = 0; k < depth && holder[j] >= 0; k++, j = holder[j]) parts.push(`${holderEdge[j]} ${label(holder[j])}`);
    return parts.join(' <- ');
  };
  const held = new Set(['(object elements)', '(object properties)', 'system / PropertyArray', 'system / PromiseReaction']);
  const byLabel = new Map();
  for (let i = 0; i < count; i++) {
    const t = type(i);
    const n = name(i);
    let key;
    if (t === 'closure') key = name(i) ? label(i) : `${label(i)} <- ${chain(i)}`;
    else if (n === 'system / Context') key = `Context of ${contextOwner[i] >= 0 ? label(contextOwner[i]) : chain(i)}`;
    else if (held.has(n) || t === 'string' || t === 'number' || (t === 'object' && (n === 'Object' || n === 'Array' || n === 'Promise'))) key = `${t === 'string' ? 'string' : n} <- ${chain(i)}`;
    else key = `${t}:${n}`;
    const entry = byLabel.get(key) ?? { objects: 0, bytes: 0 };
    entry.objects++;
    entry.bytes += selfBytes(i);
    byLabel.set(key, entry);
  }
  return byLabel;
}

const depth = Number(depthArg);
const fewer = tally(fewerPath, depth);
const more = tally(morePath, depth);
const connections = Number(moreCount) - Number(fewerCount);
const none = { objects: 0, bytes: 0 };
const rows = [...new Set([...fewer.keys(), ...more.keys()])].map((key) => {
  const a = fewer.get(key) ?? none;
  const b = more.get(key) ?? none;
  return { key, objects: (b.objects - a.objects) / connections, bytes: (b.bytes - a.bytes) / connections };
});
const totalBytes = rows.reduce((sum, row) => sum + row.bytes, 0);
console.log(`heap per connection: ${totalBytes.toFixed(0)} B (${connections} connections apart)`);
rows.sort((x, y) => y.bytes - x.bytes);
for (const row of rows.slice(0, Number(rowsArg))) console.log(`${row.bytes.toFixed(0).padStart(6)} B ${row.objects.toFixed(2).padStart(6)}  ${row.key}`);
