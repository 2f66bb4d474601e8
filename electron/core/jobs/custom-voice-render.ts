/**
 * What a job accepted with a custom voice renders with: its snapshot (the definition when it was
 * accepted, not today's) resolved into the voice code, composed prosody, lexicon and neural
 * voice, with a warning when its pack or blend is not installed. Shared by the requests' runner
 * and the export jobs.
 */

import type { CustomVoice } from '../../shared/custom-voices';
import type { ModelId } from '../../shared/options';
import type { LanguageCode } from '../../shared/voices';
import type { LexiconRule, NeuralVoice } from '../engine';
import {
  customLexicon,
  parseCustomVoiceSnapshot,
  parseSsmlVoicesSnapshot,
  resolveCustomVoice,
  type RequestProsody,
  type ResolvedCustomVoice,
} from '../voices';

/** What is installed, as the jobs' options give it (each may be missing). */
export interface CustomVoiceLookups {
  neuralVoice?: ((voiceCode: string, modelId: ModelId) => Promise<NeuralVoice | undefined>) | undefined;
  packVoice?: ((packId: string, speaker: string | undefined) => Promise<NeuralVoice | undefined>) | undefined;
  kokoroVoice?: ((mix: string) => Promise<NeuralVoice | undefined>) | undefined;
  lexicon?: ((language: LanguageCode) => Promise<readonly LexiconRule[]>) | undefined;
}

export interface CustomVoiceRender {
  resolved: ResolvedCustomVoice;
  lexicon: LexiconRule[];
  warnings: string[];
}

/**
 * The render of a job's custom voice snapshot (`custom_voice` column) with the job's prosody;
 * undefined when it has none. A voice library that cannot be read leaves it to eSpeak (`warn`
 * says so) rather than failing the job.
 */
export async function customVoiceRender(
  snapshot: string | null,
  prosody: RequestProsody & { model_id: ModelId },
  lookups: CustomVoiceLookups,
  warn: (message: string) => void,
): Promise<CustomVoiceRender | undefined> {
  const custom = parseCustomVoiceSnapshot(snapshot);
  if (!custom) return undefined;
  const library = <T>(what: Promise<T> | undefined) =>
    (what ?? Promise.resolve(undefined)).catch((error: unknown) => {
      warn(`voice library unreadable, eSpeak speaks: ${(error as Error).message}`);
      return undefined;
    });
  const resolved = await resolveCustomVoice(custom, prosody, {
    neuralVoice: (code) => library(lookups.neuralVoice?.(code, prosody.model_id)),
    packVoice: (packId, speaker) => library(lookups.packVoice?.(packId, speaker)),
    kokoroVoice: (mix) => library(lookups.kokoroVoice?.(mix)),
  });
  const global = (await lookups.lexicon?.(custom.language as LanguageCode)) ?? [];
  return {
    resolved,
    lexicon: customLexicon(custom, global),
    warnings: resolved.fallback
      ? [
          `Custom voice ${custom.code}: its ${custom.base.kind === 'pack' ? `pack ${custom.base.pack_id}` : 'Kokoro blend'} is not installed; ${custom.voice_code} spoke instead.`,
        ]
      : [],
  };
}

/**
 * The custom voices a job's SSML names (its snapshot's `ssml_voices`, as accepted) and what
 * speaks each (neural voice, lexicon), for `ssmlVoices`.
 */
export function ssmlCustomVoices(
  snapshot: string | null,
  modelId: ModelId,
  lookups: CustomVoiceLookups,
  warn: (message: string) => void,
): {
  customVoices: Record<string, CustomVoice>;
  customVoice: (
    code: string,
  ) => Promise<{ neuralVoice: NeuralVoice | undefined; lexicon: readonly LexiconRule[] }>;
} {
  const customVoices = parseSsmlVoicesSnapshot(snapshot);
  return {
    customVoices,
    async customVoice(code) {
      const voice = customVoices[code]!;
      // Prosody is the document's to compose (run by run); only the speaker is needed here.
      const rendered = await customVoiceRender(
        JSON.stringify(voice),
        { speed_rate: 1, pitch_rate: 1, volume: 100, model_id: modelId },
        lookups,
        warn,
      );
      for (const warning of rendered?.warnings ?? []) warn(warning);
      return { neuralVoice: rendered?.resolved.neuralVoice, lexicon: rendered?.lexicon ?? [] };
    },
  };
}
