/**
 * Tells, for one receiving connection, whether each message from a sender is new, a duplicate, or
 * too old to tell apart; the caller counts the answers (workers/engine/worker-stats.ts). Messages
 * are identified by the payload header's (sender, seq).
 *
 * Memory must not grow with the length of a run (hours at 1 msg/s), so a set of every seq seen is
 * out. Per sender we keep a low watermark `base` and a sliding bitmap of `windowSeqs` bits covering
 * seqs [base, base + windowSeqs):
 * - a seq inside the window is decided exactly, in any order: new the first time, duplicate after;
 * - a seq at or beyond the window's end slides the window forward so that seq is its last bit.
 *   Seqs slid over without being seen are simply not received: the planned receptions that never
 *   arrive are counted as lost by the run (core/accounting/fates.ts);
 * - a seq below `base` is stale: it may be new or a duplicate, we can no longer tell, so it is
 *   counted apart and never as new.
 *
 * The bitmap is a ring: seq s lives at bit s % windowSeqs, so sliding clears bits instead of moving
 * them. All senders' rings share one Uint32Array (plus one Float64Array for the watermarks), sized
 * for the senders the plan says this receiver hears (ScenarioPlan.sendersHeardBy: 1 for echo) and
 * grown by doubling when one more shows up, so a sender beyond the plan is still decided exactly:
 * recording a message allocates nothing once a sender has its slot.
 *
 * A receiver holds one of these for the whole run, thousands per worker, so its fixed cost counts:
 * the first sender's slot needs no Map (most receivers hear one sender); the Map of sender → slot
 * is made when a second sender shows up. A receiver planned to hear one sender takes its ring and
 * watermark from arrays shared by many ledgers (LedgerSlab): two typed arrays of its own cost
 * ~450 B of heap beyond the bits (two ArrayBuffers, two views, their backing stores), a third of
 * what the runner's connection held beyond the plain library's (heap snapshots, issue 44). It
 * moves to arrays of its own only when a second sender shows up.
 */

import { ENGINE_WORDS } from './words.ts';

export type Reception = 'new' | 'duplicate' | 'stale';

export interface ReceptionLedgerOptions {
  /**
   * Seqs per sender that can still be told apart, in messages; a whole multiple of 32, from 32 to
   * 2^24. Default 4,096 (512 B per sender): at 1 msg/s a message may arrive up to 68 min late and at
   * 100 msg/s 41 s late and still be decided exactly.
   */
  windowSeqs?: number;
  /**
   * Senders this receiver expects to hear from, in connections, from 0; room for more is made by
   * doubling. Default 4. Give the plan's number (ScenarioPlan.sendersHeardBy): an echo receiver
   * then holds 1 slot (512 B with the default window) instead of 4, and 1,000 receivers x 40
   * group senders ~23 MB instead of up to 1.6 times that after doubling.
   */
  expectedSenders?: number;
}

export const DEFAULT_WINDOW_SEQS = 4_096;
/** How late a message may arrive and still be decided exactly, when the window is sized from the send interval. */
export const DECIDED_LATENESS_MS = 3_600_000;

/**
 * The window for a sender every `sendIntervalMs`: enough seqs to decide a message up to an hour
 * late (DECIDED_LATENESS_MS), at most the default. Every 10 s that is 384 seqs (48 B per sender,
 * allocated inside V8's heap) instead of 4,096 (512 B outside it): 0.4 KB of resident memory less
 * per echo receiver, measured over 12,500 ledgers. At every 878 ms or faster, the default 4,096.
 */
export function windowSeqsFor(sendIntervalMs: number): number {
  if (!(sendIntervalMs > 0)) return DEFAULT_WINDOW_SEQS;
  const seqs = Math.ceil(DECIDED_LATENESS_MS / sendIntervalMs);
  return Math.min(DEFAULT_WINDOW_SEQS, Math.max(BITS_PER_WORD, Math.ceil(seqs / BITS_PER_WORD) * BITS_PER_WORD));
}
const MAX_WINDOW_SEQS = 2 ** 24;
/** Words of ring bits in one shared array: 256 KB, the rings of ~580 receivers at 1 msg/s. */
const SLAB_WORDS = 65_536;
/** A ring larger than this many words gets arrays of its own: a slab holds at least 64 rings. */
const SLAB_MAX_RING_WORDS = SLAB_WORDS / 64;

/**
 * The shared arrays single-sender ledgers take their ring and watermark from, in order; a full one
 * is left to the ledgers holding it (it is freed with the last of them) and a new one started.
 * Ledgers are made on one thread, so one slab per module instance is enough; it starts empty, so
 * a thread that never makes a ledger holds none of it.
 */
class LedgerSlab {
  #bits = new Uint32Array(0);
  #bitsUsed = 0;
  #base = new Float64Array(0);
  #baseUsed = 0;

  /** Room for one sender's ring of `words` words and its watermark, zeroed. */
  take(words: number): { bits: Uint32Array; bitsAt: number; base: Float64Array; baseAt: number } {
    if (this.#bitsUsed + words > this.#bits.length) {
      this.#bits = new Uint32Array(SLAB_WORDS);
      this.#bitsUsed = 0;
    }
    if (this.#baseUsed === this.#base.length) {
      this.#base = new Float64Array(SLAB_WORDS / 16);
      this.#baseUsed = 0;
    }
    const room = { bits: this.#bits, bitsAt: this.#bitsUsed, base: this.#base, baseAt: this.#baseUsed };
    this.#bitsUsed += words;
    this.#baseUsed += 1;
    return room;
  }
}

const slab = new LedgerSlab();
const BITS_PER_WORD = 32;
const DEFAULT_EXPECTED_SENDERS = 4;
/** A V8 Map entry (key, value, hash chain) is about this big; used only for the estimate. */
const MAP_ENTRY_BYTES = 40;

export class ReceptionLedger {
  /** Seqs per sender that can be told apart. */
  readonly windowSeqs: number;
  readonly #wordsPerSender: number;
  /** The sender in slot 0, -1 before any: most receivers hear one sender and need no Map. */
  #firstSender = -1;
  /** Sender index → slot in the arrays below, for the senders after the first; made when one shows up. */
  #slots: Map<number, number> | null = null;
  /** Ring bitmaps, #wordsPerSender words per slot, from word #bitsAt (a shared array's or its own). */
  #bits: Uint32Array;
  #bitsAt = 0;
  /** Per slot: the lowest seq still in the window (the low watermark), from #baseAt. Float64: seqs pass 2^32. */
  #base: Float64Array;
  #baseAt = 0;
  /** Senders there is room for in the arrays above. */
  #slotCount: number;

  constructor(options: ReceptionLedgerOptions = {}) {
    const windowSeqs = options.windowSeqs ?? DEFAULT_WINDOW_SEQS;
    if (
      !Number.isInteger(windowSeqs) ||
      windowSeqs < BITS_PER_WORD ||
      windowSeqs > MAX_WINDOW_SEQS ||
      windowSeqs % BITS_PER_WORD !== 0
    ) {
      throw new Error(ENGINE_WORDS.badWindow({ windowSeqs: String(windowSeqs), max: MAX_WINDOW_SEQS, defaultSeqs: DEFAULT_WINDOW_SEQS }));
    }
    const slots = options.expectedSenders ?? DEFAULT_EXPECTED_SENDERS;
    if (!Number.isInteger(slots) || slots < 0 || slots > 1_000_000) {
      throw new Error(ENGINE_WORDS.badSenders({ senders: String(slots), defaultSenders: DEFAULT_EXPECTED_SENDERS }));
    }
    this.windowSeqs = windowSeqs;
    this.#wordsPerSender = windowSeqs / BITS_PER_WORD;
    this.#slotCount = slots;
    if (slots === 1 && this.#wordsPerSender <= SLAB_MAX_RING_WORDS) {
      const room = slab.take(this.#wordsPerSender);
      this.#bits = room.bits;
      this.#bitsAt = room.bitsAt;
      this.#base = room.base;
      this.#baseAt = room.baseAt;
    } else {
      this.#bits = new Uint32Array(slots * this.#wordsPerSender);
      this.#base = new Float64Array(slots);
    }
  }

  /**
   * Accounts for one received message.
   * @param sender run-wide index of the sending connection (whole number >= 0).
   * @param seq the sender's counter, from 0 (whole number >= 0).
   * @throws Error when either is not a whole number >= 0: a caller should drop such payloads
   *   (`parsePayloadHeader` lets negative numbers through) before they get here.
   */
  record(sender: number, seq: number): Reception {
    if (!isIndex(sender) || !isIndex(seq)) {
      throw new Error(ENGINE_WORDS.badReception({ sender: String(sender), seq: String(seq) }));
    }
    const slot = this.#slotOf(sender);
    const base = this.#base[this.#baseAt + slot]!;
    if (seq < base) return 'stale';
    if (seq >= base + this.windowSeqs) this.#slide(slot, base, seq - this.windowSeqs + 1);

    const offset = seq % this.windowSeqs;
    const word = this.#bitsAt + slot * this.#wordsPerSender + (offset >>> 5);
    const mask = 1 << (offset & 31);
    if ((this.#bits[word]! & mask) !== 0) return 'duplicate';
    this.#bits[word] = this.#bits[word]! | mask;
    return 'new';
  }

  /**
   * Bytes held, roughly: the arrays' full capacity plus a Map entry per sender. Bounded by the
   * number of senders, whatever the number of messages.
   */
  get memoryBytesEstimate(): number {
    return (
      this.#slotCount * (this.#wordsPerSender * Uint32Array.BYTES_PER_ELEMENT + Float64Array.BYTES_PER_ELEMENT) +
      (this.#slots?.size ?? 0) * MAP_ENTRY_BYTES
    );
  }

  /** Senders heard so far. */
  get senders(): number {
    return this.#firstSender < 0 ? 0 : 1 + (this.#slots?.size ?? 0);
  }

  /** Senders there is room for without growing. */
  get capacity(): number {
    return this.#slotCount;
  }

  #slotOf(sender: number): number {
    if (sender === this.#firstSender) return 0;
    const known = this.#slots?.get(sender);
    if (known !== undefined) return known;
    const slot = this.senders;
    // Fresh slots are zero: base 0 (senders count from 0), no bits set.
    if (slot === this.#slotCount) this.#grow(Math.max(1, slot * 2));
    if (slot === 0) this.#firstSender = sender;
    else (this.#slots ??= new Map()).set(sender, slot);
    return slot;
  }

  /** Arrays of its own for `slots` senders, the ones heard so far copied over. */
  #grow(slots: number): void {
    const bits = new Uint32Array(slots * this.#wordsPerSender);
    bits.set(this.#bits.subarray(this.#bitsAt, this.#bitsAt + this.#slotCount * this.#wordsPerSender));
    this.#bits = bits;
    this.#bitsAt = 0;
    const base = new Float64Array(slots);
    base.set(this.#base.subarray(this.#baseAt, this.#baseAt + this.#slotCount));
    this.#base = base;
    this.#baseAt = 0;
    this.#slotCount = slots;
  }

  /** Moves the window of `slot` from [oldBase, ...) to [newBase, ...), forgetting the seqs passed. */
  #slide(slot: number, oldBase: number, newBase: number): void {
    const first = this.#bitsAt + slot * this.#wordsPerSender;
    if (newBase - oldBase >= this.windowSeqs) {
      this.#bits.fill(0, first, first + this.#wordsPerSender);
    } else {
      // Fewer than windowSeqs bits; over a run this clears each seq's bit once, O(1) per message.
      for (let seq = oldBase; seq < newBase; seq++) {
        const offset = seq % this.windowSeqs;
        const word = first + (offset >>> 5);
        this.#bits[word] = this.#bits[word]! & ~(1 << (offset & 31));
      }
    }
    this.#base[this.#baseAt + slot] = newBase;
  }
}

function isIndex(value: number): boolean {
  return Number.isSafeInteger(value) && value >= 0;
}
