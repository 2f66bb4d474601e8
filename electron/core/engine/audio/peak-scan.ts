/**
 * Whether any sample of a block exceeds a magnitude, in WebAssembly SIMD (8 samples per step).
 * The volume stage asks this of every sample a render writes at gain 1 (about 146 million for a
 * 100,000-character chapter); a JavaScript loop took about 3 ns a sample, this about 0.25 ns
 * with the copy into the module's memory. Where WebAssembly SIMD is missing the same answer
 * comes from a loop.
 */

/**
 * The module, assembled by hand from this text (one 64 KiB page of memory; `bytes` a multiple
 * of 16; `limit` in 0–32767):
 *
 *   (module
 *     (memory (export "memory") 1)
 *     (func (export "exceeds") (param $bytes i32) (param $limit i32) (result i32)
 *       (local $i i32) (local $any v128) (local $high v128) (local $low v128) (local $x v128)
 *       (local.set $high (i16x8.splat (local.get $limit)))
 *       (local.set $low (i16x8.splat (i32.sub (i32.const 0) (local.get $limit))))
 *       (block (loop
 *         (br_if 1 (i32.ge_u (local.get $i) (local.get $bytes)))
 *         (local.set $x (v128.load (local.get $i)))
 *         (local.set $any (v128.or (local.get $any)
 *           (v128.or (i16x8.gt_s (local.get $x) (local.get $high))
 *                    (i16x8.lt_s (local.get $x) (local.get $low)))))
 *         (local.set $i (i32.add (local.get $i) (i32.const 16)))
 *         (br 0)))
 *       (v128.any_true (local.get $any))))
 */
const MODULE_HEX =
  '0061736d0100000001070160027f7f017f030201000503010001071402066d656d6f72790200076578636565647300000a4b01' +
  '4902017f047b2001fd102104410020016bfd10210502400340200220004f0d012002fd00040022062004fd3120062005fd2f' +
  'fd502003fd502103200241106a21020c000b0b2003fd530b';

/** Samples the module's memory holds: one page. */
const BLOCK_SAMPLES = 32_768;

interface Scanner {
  exceeds(bytes: number, limit: number): number;
  samples: Int16Array;
}

/** The module's instance, made on first use (a few microseconds); null where it cannot be. */
let scanner: Scanner | null | undefined;

function loadScanner(): Scanner | null {
  try {
    const instance = new WebAssembly.Instance(new WebAssembly.Module(Buffer.from(MODULE_HEX, 'hex')));
    const { exceeds, memory } = instance.exports as {
      exceeds: Scanner['exceeds'];
      memory: WebAssembly.Memory;
    };
    return { exceeds, samples: new Int16Array(memory.buffer, 0, BLOCK_SAMPLES) };
  } catch {
    // No WebAssembly SIMD here: the loop below answers alone.
    return null;
  }
}

/**
 * Whether the magnitude of any sample of `pcm` is above `limit` (in sample units, ≥ 0; -32768
 * has magnitude 32768).
 */
export function exceedsMagnitude(pcm: Int16Array, limit: number): boolean {
  // For whole samples, above `limit` is above its integer part.
  const whole = Math.floor(limit);
  if (whole >= 32768) return false;
  if (whole < 0) return pcm.length > 0;
  scanner ??= loadScanner();
  let start = 0;
  if (scanner) {
    const { exceeds, samples } = scanner;
    // Whole steps of 8 samples go to the module, the few left over to the loop.
    const simd = pcm.length - (pcm.length % 8);
    for (let from = 0; from < simd; from += BLOCK_SAMPLES) {
      const to = Math.min(simd, from + BLOCK_SAMPLES);
      samples.set(pcm.subarray(from, to));
      if (exceeds((to - from) * 2, whole) !== 0) return true;
    }
    start = simd;
  }
  for (let i = start; i < pcm.length; i++) {
    const x = pcm[i]!;
    if (x > whole || x < -whole) return true;
  }
  return false;
}
