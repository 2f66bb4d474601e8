import type { LexiconEntryInput } from '../../../../electron/shared/lexicon';
import { findVoice, type LanguageCode } from '../../../../electron/shared/voices';
import type { Audition } from '../../lib/useAudition';
import { useClient, useStudio } from '../../stores';

/**
 * The voice that tests an entry: the studio's voice when it speaks the entry's language, else
 * none (the server takes the language's first voice).
 */
export function usePreviewVoice(language: LanguageCode): string | undefined {
  const voiceCode = useStudio((s) => s.options.voice_code);
  return findVoice(voiceCode)?.language === language ? voiceCode : undefined;
}

/** Plays an entry's preview (saved by id, or a draft) through `audition`, under `key`. */
export function usePreview(audition: Audition) {
  const client = useClient();
  return (
    key: string,
    entry: string | LexiconEntryInput,
    voiceCode: string | undefined,
    variant: 'with' | 'without' = 'with',
  ) => {
    const body = {
      ...(voiceCode ? { voice_code: voiceCode } : {}),
      ...(variant === 'without' ? { variant } : {}),
    };
    audition.toggleSource(key, client.lexiconPreviewUrl(entry, body), () =>
      client.lexiconPreview(entry, body),
    );
  };
}
