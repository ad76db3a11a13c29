import { describe, expect, it } from 'vitest';
import { MAX_PIECE_CHARS, PieceJoiner, toPieces } from '../../../core/fleet/pieces.ts';

/** The target ids of a send-to-connection thread, as the dashboard sends them. */
const targets = (count: number) => JSON.stringify({ type: 'worker', thread: 0, message: { type: 'go', targets: Array.from({ length: count }, (_, i) => `conn-${String(i).padStart(17, '0')}`) } });

const joinAll = (pieces: string[], joiner = new PieceJoiner()) => pieces.map((piece) => joiner.add(piece));

describe('control messages in pieces', () => {
  it('sends a short message as it is', () => {
    expect(toPieces('{"type":"clock-ping","pingId":1}')).toEqual(['{"type":"clock-ping","pingId":1}']);
    expect(new PieceJoiner().add('{"a":1}')).toBe('{"a":1}');
  });

  it('cuts the targets of 10,000 connections into pieces under the limit and joins them back', () => {
    const message = targets(10_000);
    const pieces = toPieces(message);
    expect(pieces.length).toBe(Math.ceil(message.length / (MAX_PIECE_CHARS - 1)));
    for (const piece of pieces) expect(piece.length).toBeLessThanOrEqual(MAX_PIECE_CHARS);
    // At most 3 UTF-8 bytes a character: every piece stays under 48,000 bytes, 64 KiB with the envelope.
    for (const piece of pieces) expect(new TextEncoder().encode(piece).length).toBeLessThanOrEqual(3 * MAX_PIECE_CHARS);
    const joined = joinAll(pieces);
    expect(joined.slice(0, -1).every((part) => part === null)).toBe(true);
    expect(joined.at(-1)).toBe(message);
  });

  it('never splits a surrogate pair', () => {
    const message = `{"name":"${'😀'.repeat(50)}"}`;
    const pieces = toPieces(message, 10);
    for (const piece of pieces) expect(piece).toBe(new TextDecoder().decode(new TextEncoder().encode(piece)));
    expect(joinAll(pieces).at(-1)).toBe(message);
  });

  it('keeps working after one sender\'s messages, whole and in pieces, one after another', () => {
    const joiner = new PieceJoiner();
    const first = targets(1_000);
    const results = joinAll([...toPieces(first, 5_000), '{"b":2}', ...toPieces(first, 7_000)], joiner);
    expect(results.filter((r) => r !== null)).toEqual([first, '{"b":2}', first]);
  });

  it('drops a message longer than the bound and takes the next one', () => {
    const joiner = new PieceJoiner(1_000);
    expect(joinAll(toPieces(targets(100), 300), joiner).every((r) => r === null)).toBe(true);
    expect(joinAll(toPieces(targets(10), 300), joiner).at(-1)).toBe(targets(10));
  });
});
