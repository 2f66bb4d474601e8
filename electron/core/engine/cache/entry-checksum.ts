/**
 * The sentence cache's entry checksum: two running sums of the bytes taken as 32-bit words in
 * four lanes (Fletcher's scheme, modulo 2^32), in WebAssembly SIMD. A: the sum of the words of
 * each lane; B: the sum of A after each step, which weighs every word by its position. A damaged
 * byte changes A; words moved or swapped change B. The cache needs to find damaged and
 * truncated files, not to resist forgery (the entry's length fields catch a cut file too).
 *
 * A render from the cache checks every byte it reads (about 260 MB for a 100,000-character
 * chapter): zlib's CRC-32 took about 0.5 ns a byte on this thread, this about 0.17 ns with the
 * copy into the module's memory. Where WebAssembly SIMD is missing a loop gives the same sums.
 */

/**
 * The module, assembled by hand from this text (five 64 KiB pages: four of data, then the
 * state A, B at 262144; `bytes` a multiple of 16):
 *
 *   (module
 *     (memory (export "memory") 5)
 *     (func (export "add") (param $bytes i32)
 *       (local $i i32) (local $a v128) (local $b v128)
 *       (local.set $a (v128.load (i32.const 262144)))
 *       (local.set $b (v128.load (i32.const 262160)))
 *       (block (loop
 *         (br_if 1 (i32.ge_u (local.get $i) (local.get $bytes)))
 *         (local.set $b (i32x4.add
 *           (local.tee $a (i32x4.add (local.get $a) (v128.load (local.get $i))))
 *           (local.get $b)))
 *         (local.set $i (i32.add (local.get $i) (i32.const 16)))
 *         (br 0)))
 *       (v128.store (i32.const 262144) (local.get $a))
 *       (v128.store (i32.const 262160) (local.get $b))))
 */
const MODULE_HEX =
  '0061736d0100000001050160017f00030201000503010005071002066d656d6f727902000361646400000a5a0158' +
  '02017f027b41808010fd000400210241908010fd000400210302400340200120004f0d0120022001fd000400fdae' +
  '0122022003fdae012103200141106a21010c000b0b418080102002fd0b0400419080102003fd0b04000b';

/** Bytes of data the module's memory holds at once. */
const DATA_BYTES = 262_144;
/** Bytes of the checksum: A then B, four u32 LE each. */
export const CHECKSUM_BYTES = 32;

interface Summer {
  add(bytes: number): void;
  data: Uint8Array;
  /** A (lanes 0–3) then B (lanes 0–3). */
  state: Uint32Array;
}

/** The module's instance, made on first use; null where it cannot be. */
let summer: Summer | null | undefined;

function loadSummer(): Summer | null {
  try {
    const instance = new WebAssembly.Instance(new WebAssembly.Module(Buffer.from(MODULE_HEX, 'hex')));
    const { add, memory } = instance.exports as { add: Summer['add']; memory: WebAssembly.Memory };
    return {
      add,
      data: new Uint8Array(memory.buffer, 0, DATA_BYTES),
      state: new Uint32Array(memory.buffer, DATA_BYTES, 8),
    };
  } catch {
    // No WebAssembly SIMD here: the loop answers.
    return null;
  }
}

/** The checksum of `bytes` (32 bytes); a last partial word of 16 bytes counts as padded with zeros. */
export function entryChecksum(bytes: Uint8Array, options: { simd?: boolean } = {}): Buffer {
  if (options.simd !== false) summer ??= loadSummer();
  const sums = options.simd !== false && summer ? sumsSimd(summer, bytes) : sumsLoop(bytes);
  const out = Buffer.alloc(CHECKSUM_BYTES);
  sums.forEach((sum, k) => out.writeUInt32LE(sum, 4 * k));
  return out;
}

function sumsSimd({ add, data, state }: Summer, bytes: Uint8Array): Uint32Array {
  state.fill(0);
  const whole = bytes.length - (bytes.length % 16);
  for (let from = 0; from < whole; from += DATA_BYTES) {
    const to = Math.min(whole, from + DATA_BYTES);
    data.set(bytes.subarray(from, to));
    add(to - from);
  }
  if (whole < bytes.length) {
    data.fill(0, 0, 16);
    data.set(bytes.subarray(whole));
    add(16);
  }
  return state.slice();
}

function sumsLoop(bytes: Uint8Array): Uint32Array {
  const padded = new Uint8Array(Math.ceil(bytes.length / 16) * 16);
  padded.set(bytes);
  const view = new DataView(padded.buffer);
  const sums = new Uint32Array(8);
  for (let i = 0; i < padded.length; i += 16) {
    for (let lane = 0; lane < 4; lane++) {
      sums[lane] = sums[lane]! + view.getUint32(i + 4 * lane, true);
      sums[lane + 4] = sums[lane + 4]! + sums[lane]!;
    }
  }
  return sums;
}
