/**
 * What the first-run offer proposes: our languages (Vietnamese first), which of them are ticked
 * at first (the browser's or system's language, and Vietnamese), and per language the pack to
 * download: the one the language's voice codes name as their default (the default assignment,
 * as GET /api/v1/voice-packs reports it in `default_pack`), else the best pack of the catalogue
 * for the language (highest quality tier, a stated licence before an unknown one, the smaller
 * download). One pack may serve several languages (Kokoro): it is offered, and counted, once.
 */

import type { VoiceEngineInfo, VoicePackInfo } from '../../../../electron/shared/voice-packs';
import { languageOfTag } from '../../../../electron/shared/languages';
import { VOICES, type LanguageCode } from '../../../../electron/shared/voices';

export interface OfferLanguage {
  code: LanguageCode;
  name: string;
}

/** Our languages, Vietnamese first, then in the voice list's order. */
export const OFFER_LANGUAGES: readonly OfferLanguage[] = (() => {
  const seen = new Map<LanguageCode, string>();
  for (const v of VOICES) if (!seen.has(v.language)) seen.set(v.language, v.language_name);
  const list = [...seen].map(([code, name]) => ({ code, name }));
  return [...list.filter((l) => l.code === 'vi'), ...list.filter((l) => l.code !== 'vi')];
})();

/** The first of the user's preferred languages (`navigator.languages`) that is one of ours. */
export function userLanguage(preferred: readonly string[]): LanguageCode | undefined {
  for (const tag of preferred) {
    const code = languageOfTag(tag);
    if (code) return code;
  }
  return undefined;
}

/** Ticked at first: the user's language and Vietnamese (once when they are the same). */
export function defaultLanguages(preferred: readonly string[]): LanguageCode[] {
  const own = userLanguage(preferred);
  return own && own !== 'vi' ? ['vi', own] : ['vi'];
}

const QUALITY_RANK: Record<VoicePackInfo['quality'], number> = { x_low: 0, low: 1, medium: 2, high: 3 };
const licenceKnown = (pack: VoicePackInfo) => !/^unknown/i.test(pack.licence);

/**
 * The pack offered for `language`, or undefined when no pack speaks it (Korean): the default
 * pack most of the language's voice codes name, when the library lists it; else the best fit.
 */
export function packForLanguage(
  language: LanguageCode,
  packs: readonly VoicePackInfo[],
  engines: Readonly<Record<string, VoiceEngineInfo>>,
): VoicePackInfo | undefined {
  const votes = new Map<string, number>();
  for (const v of VOICES) {
    const id = v.language === language ? engines[v.voice_code]?.default_pack : null;
    if (id) votes.set(id, (votes.get(id) ?? 0) + 1);
  }
  const named = [...votes]
    .sort((a, b) => b[1] - a[1])
    .map(([id]) => packs.find((p) => p.id === id))
    .find((p) => p !== undefined);
  if (named) return named;
  return packs
    .filter((p) => p.languages.includes(language))
    .sort(
      (a, b) =>
        Number(b.state === 'installed') - Number(a.state === 'installed') ||
        QUALITY_RANK[b.quality] - QUALITY_RANK[a.quality] ||
        Number(licenceKnown(b)) - Number(licenceKnown(a)) ||
        a.size - b.size,
    )[0];
}

export interface OfferedPack {
  pack: VoicePackInfo;
  /** The chosen languages it speaks, in the offer's order. */
  languages: LanguageCode[];
}

/** The packs for the chosen languages, each once; and the chosen languages no pack speaks. */
export function offeredPacks(
  chosen: readonly LanguageCode[],
  packs: readonly VoicePackInfo[],
  engines: Readonly<Record<string, VoiceEngineInfo>>,
): { offered: OfferedPack[]; without: LanguageCode[] } {
  const offered: OfferedPack[] = [];
  const without: LanguageCode[] = [];
  for (const { code } of OFFER_LANGUAGES) {
    if (!chosen.includes(code)) continue;
    const pack = packForLanguage(code, packs, engines);
    if (!pack) {
      without.push(code);
      continue;
    }
    const same = offered.find((o) => o.pack.id === pack.id);
    if (same) same.languages.push(code);
    else offered.push({ pack, languages: [code] });
  }
  return { offered, without };
}

/** Bytes still to download for the offered packs that are not installed. */
export function downloadBytes(offered: readonly OfferedPack[]): number {
  return offered.filter((o) => o.pack.state !== 'installed').reduce((n, o) => n + o.pack.size, 0);
}

/** The source's repository without scheme or folder, for display (`huggingface.co/rhasspy/piper-voices`). */
export function sourceLabel(url: string | null): string | null {
  if (!url) return null;
  return url.replace(/^https?:\/\//, '').replace(/\/(tree|resolve|blob)\/.*$/, '');
}
