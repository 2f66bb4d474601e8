/**
 * The phonemes a render's voices did not know (a Piper voice's `phoneme_id_map` or Kokoro's
 * vocabulary lacks them, so they were left out of the audio), counted per voice and phoneme,
 * and the warning that says so.
 */

import type { DroppedPhoneme } from '../engine';

export class DroppedPhonemes {
  /** voice label → phoneme → count, in order of first occurrence. */
  private readonly byVoice = new Map<string, Map<string, number>>();

  add(voice: string, phonemes: readonly string[] | undefined): void {
    if (!phonemes || phonemes.length === 0) return;
    let counts = this.byVoice.get(voice);
    if (!counts) this.byVoice.set(voice, (counts = new Map()));
    for (const p of phonemes) counts.set(p, (counts.get(p) ?? 0) + 1);
  }

  /** Every voice's counts summed per phoneme, most first (ties in order of first occurrence). */
  counts(): DroppedPhoneme[] {
    const sum = new Map<string, number>();
    for (const counts of this.byVoice.values()) {
      for (const [phoneme, n] of counts) sum.set(phoneme, (sum.get(phoneme) ?? 0) + n);
    }
    return sortCounts(sum);
  }

  /** One sentence per voice that left phonemes out; empty when none did. */
  warnings(): string[] {
    return [...this.byVoice].map(([voice, counts]) => droppedWarning(voice, sortCounts(counts)));
  }
}

function sortCounts(counts: ReadonlyMap<string, number>): DroppedPhoneme[] {
  return [...counts].map(([phoneme, count]) => ({ phoneme, count })).sort((a, b) => b.count - a.count);
}

/**
 * `piper:vi_VN-vivos-x_low#0 does not know 14 phonemes of this text and left them out: "2" ×6 (U+0032), …`
 * Each phoneme is quoted and named by code point, as combining marks and digits read badly alone.
 */
function droppedWarning(voice: string, counts: readonly DroppedPhoneme[]): string {
  const total = counts.reduce((n, c) => n + c.count, 0);
  const list = counts
    .map(
      ({ phoneme, count }) =>
        `"${phoneme}" ×${count} (${Array.from(phoneme, (c) => `U+${(c.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`).join(' ')})`,
    )
    .join(', ');
  return `${voice} does not know ${total} phoneme${total === 1 ? '' : 's'} of this text and left ${total === 1 ? 'it' : 'them'} out: ${list}`;
}
