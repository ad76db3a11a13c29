/**
 * The ledger must give exactly the answers of a naive model that keeps every seq in a Set and the
 * same low watermark, on random streams with reordering, duplicates and jumps; and exactly the
 * distinct count when nothing falls out of the window.
 */
import { describe, expect, it } from 'vitest';
import { DECIDED_LATENESS_MS, DEFAULT_WINDOW_SEQS, ReceptionLedger, windowSeqsFor, type Reception } from '../../workers/engine/reception-ledger.ts';
import { seeded } from '../support/seeded-random.ts';


/** Same rules as the ledger, unbounded memory: a Set of every seq seen per sender. */
class NaiveLedger {
  readonly #senders = new Map<number, { base: number; seen: Set<number> }>();
  constructor(readonly windowSeqs: number) {}

  record(sender: number, seq: number): Reception {
    let state = this.#senders.get(sender);
    if (!state) this.#senders.set(sender, (state = { base: 0, seen: new Set() }));
    if (seq < state.base) return 'stale';
    if (seq >= state.base + this.windowSeqs) state.base = seq - this.windowSeqs + 1;
    if (state.seen.has(seq)) return 'duplicate';
    state.seen.add(seq);
    return 'new';
  }
}

interface Message {
  sender: number;
  seq: number;
}

/**
 * Each sender's seqs 0..perSender-1, some sent twice, some skipped, with rare jumps ahead; then the
 * streams are interleaved and every message is delayed by up to `maxDelay` positions.
 */
function stream(random: () => number, senders: number, perSender: number, maxDelay: number, jumpEvery: number): Message[] {
  const timed: { at: number; message: Message }[] = [];
  for (let sender = 0; sender < senders; sender++) {
    let seq = 0;
    for (let n = 0; n < perSender; n++, seq++) {
      if (random() < 1 / jumpEvery) seq += Math.floor(random() * 3 * maxDelay);
      if (random() < 0.05) continue; // lost
      const at = n * senders + sender;
      timed.push({ at: at + random() * maxDelay * senders, message: { sender, seq } });
      if (random() < 0.1) timed.push({ at: at + random() * 2 * maxDelay * senders, message: { sender, seq } });
    }
  }
  return timed.sort((a, b) => a.at - b.at).map((t) => t.message);
}

/** Tallies of the ledger's answers, as the engine keeps them. */
function tally(answers: Reception[]) {
  return { duplicates: answers.filter((a) => a === 'duplicate').length, stale: answers.filter((a) => a === 'stale').length, unique: answers.filter((a) => a === 'new').length };
}

function compareWithModel(messages: Message[], windowSeqs: number, expectedSenders?: number) {
  const ledger = new ReceptionLedger({ windowSeqs, ...(expectedSenders === undefined ? {} : { expectedSenders }) });
  const model = new NaiveLedger(windowSeqs);
  const answers = messages.map(({ sender, seq }, i) => {
    const want = model.record(sender, seq);
    const got = ledger.record(sender, seq);
    if (got !== want) expect.fail(`message ${i} (sender ${sender}, seq ${seq}): ledger says ${got}, model ${want}`);
    return got;
  });
  return tally(answers);
}

describe('ReceptionLedger against a Set-based model', () => {
  const seeds = [1, 2, 3, 99, 31_337];
  for (const seed of seeds) {
    it(`agrees on every message with a 64-seq window, reordering past it and jumps (seed ${seed})`, () => {
      const counts = compareWithModel(stream(seeded(seed), 7, 3_000, 48, 200), 64);
      // The stream was built to exercise all three outcomes; a test that never saw one proves less.
      expect(counts.duplicates).toBeGreaterThan(0);
      expect(counts.stale).toBeGreaterThan(0);
    });

    it(`agrees with windows of 32 and 4,096 seqs (seed ${seed})`, () => {
      const messages = stream(seeded(seed + 1_000), 5, 2_000, 40, 100);
      compareWithModel(messages, 32);
      compareWithModel(messages, 4_096);
    });
  }

  it('agrees with 300 senders interleaved (slots grown several times)', () => {
    compareWithModel(stream(seeded(5), 300, 60, 10, 50), 96);
  });

  // The plan sizes each receiver's ledger (ScenarioPlan.sendersHeardBy); a sender the plan did not
  // expect (a bug, a reconnect under another index) must grow it, never be misreported.
  for (const expectedSenders of [0, 1, 2, 7, 8]) {
    it(`agrees when sized for ${expectedSenders} of 7 senders (grown from the plan's size, or exact)`, () => {
      const counts = compareWithModel(stream(seeded(40 + expectedSenders), 7, 1_500, 48, 200), 64, expectedSenders);
      expect(counts.duplicates).toBeGreaterThan(0);
      expect(counts.stale).toBeGreaterThan(0);
    });
  }
});

describe('ReceptionLedger sized from the plan', () => {
  it('holds one slot for an echo receiver and grows only when a sender beyond the plan shows up', () => {
    const ledger = new ReceptionLedger({ windowSeqs: 32, expectedSenders: 1 });
    expect(ledger.capacity).toBe(1);
    // Seqs 0..39 but 8 (not arrived yet): the window is now 8..39.
    for (let seq = 0; seq < 40; seq++) if (seq !== 8) expect(ledger.record(12_345, seq)).toBe('new');
    expect(ledger.capacity).toBe(1);
    expect(ledger.record(12_345, 39)).toBe('duplicate');
    expect(ledger.record(12_345, 7)).toBe('stale');
    // A second sender: the first keeps its window through the growth.
    expect(ledger.record(5, 39)).toBe('new');
    expect(ledger.capacity).toBe(2);
    expect(ledger.senders).toBe(2);
    expect(ledger.record(12_345, 39)).toBe('duplicate');
    expect(ledger.record(12_345, 8)).toBe('new');
    expect(ledger.record(12_345, 7)).toBe('stale');
    expect(ledger.record(5, 39)).toBe('duplicate');
    expect(ledger.record(5, 38)).toBe('new');
    // A third and a fourth share the next doubling.
    expect([ledger.record(6, 0), ledger.record(7, 0), ledger.record(6, 0)]).toEqual(['new', 'new', 'duplicate']);
    expect(ledger.capacity).toBe(4);
  });

  it('starts empty for a receiver that hears nobody, and still decides a sender that shows up', () => {
    const ledger = new ReceptionLedger({ expectedSenders: 0 });
    expect(ledger.capacity).toBe(0);
    expect(ledger.memoryBytesEstimate).toBe(0);
    expect([ledger.record(0, 0), ledger.record(0, 0), ledger.record(0, 1)]).toEqual(['new', 'duplicate', 'new']);
    expect(ledger.capacity).toBe(1);
  });

  it('tells sender 0 from a receiver that heard nobody yet', () => {
    const ledger = new ReceptionLedger({ windowSeqs: 32, expectedSenders: 2 });
    expect(ledger.senders).toBe(0);
    expect(ledger.record(0, 3)).toBe('new');
    expect(ledger.record(1, 3)).toBe('new');
    expect(ledger.record(0, 3)).toBe('duplicate');
    expect(ledger.senders).toBe(2);
  });
});

describe('ReceptionLedger exact answers', () => {
  for (const seed of [11, 12, 13]) {
    it(`counts distinct seqs exactly when reordering stays inside the window (seed ${seed})`, () => {
      const messages = stream(seeded(seed), 6, 2_000, 20, Number.POSITIVE_INFINITY);
      const ledger = new ReceptionLedger({ windowSeqs: 256 });
      const answers = messages.map(({ sender, seq }) => ({ sender, answer: ledger.record(sender, seq) }));
      const distinct = new Set(messages.map((m) => `${m.sender}:${m.seq}`));
      const counts = tally(answers.map((a) => a.answer));
      expect(counts.stale).toBe(0);
      expect(counts.unique).toBe(distinct.size);
      expect(counts.duplicates).toBe(messages.length - distinct.size);
      for (let sender = 0; sender < 6; sender++) {
        const fromSender = new Set(messages.filter((m) => m.sender === sender).map((m) => m.seq));
        expect(answers.filter((a) => a.sender === sender && a.answer === 'new')).toHaveLength(fromSender.size);
      }
    });
  }

  it('slides the window over a jump, forgets the seqs passed and calls older ones stale', () => {
    const ledger = new ReceptionLedger({ windowSeqs: 32 });
    for (let seq = 0; seq < 10; seq++) expect(ledger.record(7, seq)).toBe('new');
    expect(ledger.record(7, 100)).toBe('new'); // window is now 69..100
    expect(ledger.record(7, 68)).toBe('stale');
    expect(ledger.record(7, 5)).toBe('stale');
    expect(ledger.record(7, 69)).toBe('new');
    expect(ledger.record(7, 100)).toBe('duplicate');
  });

  it('keeps bits of the window that a short slide does not pass over', () => {
    const ledger = new ReceptionLedger({ windowSeqs: 32 });
    for (const seq of [30, 31, 3]) ledger.record(1, seq);
    expect(ledger.record(1, 33)).toBe('new'); // window 2..33: bit of seq 0/32 and 1/33 cleared
    expect(ledger.record(1, 3)).toBe('duplicate');
    expect(ledger.record(1, 30)).toBe('duplicate');
    expect(ledger.record(1, 32)).toBe('new'); // shares its bit with seq 0, which was never seen
    expect(ledger.record(1, 1)).toBe('stale');
  });

  it('decides a first message far ahead of 0 without counting the seqs before it', () => {
    const ledger = new ReceptionLedger();
    expect(ledger.record(3, 1_000_000)).toBe('new');
    expect(ledger.record(3, 1_000_000 - DEFAULT_WINDOW_SEQS + 1)).toBe('new');
    expect(ledger.record(3, 1_000_000 - DEFAULT_WINDOW_SEQS)).toBe('stale');
  });

  it('handles seqs past 2^32', () => {
    const ledger = new ReceptionLedger({ windowSeqs: 64 });
    const big = 2 ** 40 + 5;
    expect([ledger.record(0, big), ledger.record(0, big - 1), ledger.record(0, big)]).toEqual(['new', 'new', 'duplicate']);
  });

  it('keeps senders apart', () => {
    const ledger = new ReceptionLedger({ windowSeqs: 32 });
    const answers: Reception[] = [];
    for (let sender = 999; sender >= 0; sender--) answers.push(ledger.record(sender, 0), ledger.record(sender, sender % 5));
    // Senders with sender % 5 === 0 sent seq 0 twice.
    expect(tally(answers)).toEqual({ unique: 1_000 + 800, duplicates: 200, stale: 0 });
  });
});

describe('ReceptionLedger rings in shared arrays', () => {
  it('keeps 1,500 single-sender receivers apart across shared arrays, and one that grows takes its window along', () => {
    // An hour at 1 msg/s: 3,616 seqs, 113 words a ring, so 1,500 rings span three shared arrays.
    const windowSeqs = windowSeqsFor(1_000);
    const random = seeded(77);
    const receivers = Array.from({ length: 1_500 }, () => ({ ledger: new ReceptionLedger({ windowSeqs, expectedSenders: 1 }), model: new NaiveLedger(windowSeqs) }));
    const check = (i: number, sender: number, seq: number) => {
      const { ledger, model } = receivers[i]!;
      const want = model.record(sender, seq);
      const got = ledger.record(sender, seq);
      if (got !== want) expect.fail(`receiver ${i} (sender ${sender}, seq ${seq}): ledger says ${got}, model ${want}`);
      return got;
    };
    const answers: Reception[] = [];
    for (let round = 0; round < 6; round++) {
      for (let i = 0; i < receivers.length; i++) {
        // Each receiver its own sender and its own seqs: neighbours' bits set differently.
        const seq = Math.floor(random() * (round + 1) * windowSeqs);
        answers.push(check(i, i, seq), check(i, i, seq));
        if (i % 97 === 0) answers.push(check(i, i + 1, seq)); // a second sender: this one moves to arrays of its own
      }
    }
    for (let i = 0; i < receivers.length; i++) expect(receivers[i]!.ledger.capacity).toBe(i % 97 === 0 ? 2 : 1);
    expect(answers).toContain('new');
    expect(answers).toContain('duplicate');
    expect(answers).toContain('stale');
  });
});

describe('ReceptionLedger memory', () => {
  it('does not grow with the number of messages, only with the number of senders', () => {
    const ledger = new ReceptionLedger({ expectedSenders: 40 });
    const start = ledger.memoryBytesEstimate;
    for (let seq = 0; seq < 100_000; seq++) {
      for (let sender = 0; sender < 40; sender++) ledger.record(sender, seq);
    }
    // 40 x (512 B bitmap + an 8 B watermark) + ~40 B map entry for each sender after the first; nothing else.
    expect(ledger.memoryBytesEstimate).toBe(start + 39 * 40);
    expect(ledger.memoryBytesEstimate).toBe(40 * (512 + 8) + 39 * 40);
    ledger.record(40, 0);
    expect(ledger.memoryBytesEstimate).toBeGreaterThan(40 * (512 + 8) + 39 * 40);
  });
});

describe('ReceptionLedger input checks', () => {
  it('refuses windows that are not multiples of 32 and says what to use', () => {
    expect(() => new ReceptionLedger({ windowSeqs: 100 })).toThrow(/multiple of 32.*but is 100.*default of 4096/s);
    expect(() => new ReceptionLedger({ windowSeqs: 0 })).toThrow(/multiple of 32/);
    expect(() => new ReceptionLedger({ expectedSenders: -1 })).toThrow(/expectedSenders.*from 0.*but is -1/);
    expect(() => new ReceptionLedger({ expectedSenders: 1.5 })).toThrow(/expectedSenders.*but is 1.5/);
  });

  it('refuses negative or fractional senders and seqs, telling the caller to drop them', () => {
    const ledger = new ReceptionLedger();
    expect(() => ledger.record(-1, 0)).toThrow(/whole numbers >= 0.*Drop such messages/s);
    expect(() => ledger.record(0, 1.5)).toThrow(/seq 1.5/);
    expect(() => ledger.record(0, Number.NaN)).toThrow(/whole numbers/);
    // Nothing of the refused calls was recorded.
    expect(ledger.record(0, 0)).toBe('new');
  });
});

describe('windowSeqsFor', () => {
  it('covers an hour of lateness at the send interval, in whole words, never more than the default', () => {
    expect(windowSeqsFor(10_000)).toBe(384);
    expect(windowSeqsFor(10_000) * 10_000).toBeGreaterThanOrEqual(DECIDED_LATENESS_MS);
    expect(windowSeqsFor(1_000)).toBe(3_616);
    expect(windowSeqsFor(900)).toBe(4_000);
    expect(windowSeqsFor(878)).toBe(DEFAULT_WINDOW_SEQS);
    expect(windowSeqsFor(1)).toBe(DEFAULT_WINDOW_SEQS);
    expect(windowSeqsFor(3_600_000)).toBe(32);
    expect(windowSeqsFor(0)).toBe(DEFAULT_WINDOW_SEQS);
    // Every answer is a window the ledger accepts.
    for (const ms of [1, 7, 333, 1_000, 10_000, 60_000, 10_000_000]) expect(() => new ReceptionLedger({ windowSeqs: windowSeqsFor(ms) })).not.toThrow();
  });
});
