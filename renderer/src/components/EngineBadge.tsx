import { defineMessages, useIntl, type IntlShape } from 'react-intl';
import type { VoiceEngineInfo } from '../../../electron/shared/voice-packs';
import { currentIntl } from '../lib/intl-text';
import { engineKind } from '../stores/voice-packs-slice';

/** What speaks a voice, in one word: an installed neural voice or eSpeak. */
export const ENGINE_KIND = defineMessages({
  natural: { id: 'components.engine.natural', defaultMessage: 'natural' },
  basic: { id: 'components.engine.basic', defaultMessage: 'basic' },
});

const m = defineMessages<{
  neural: { engine: string };
  espeak: Record<string, never>;
  wouldBeNatural: { pack: string };
  defaultNotInstalled: { pack: string };
}>({
  neural: { id: 'components.engine.neuralTitle', defaultMessage: 'Spoken by the neural voice {engine}' },
  espeak: { id: 'components.engine.espeakTitle', defaultMessage: 'Spoken by eSpeak, the basic engine' },
  wouldBeNatural: {
    id: 'components.engine.wouldBeNatural',
    defaultMessage: 'Would be natural with {pack} installed',
  },
  defaultNotInstalled: {
    id: 'components.engine.defaultNotInstalled',
    defaultMessage: 'Its default voice is in {pack} (not installed)',
  },
});

/** "natural" (a neural pack) or "basic" (eSpeak), with the engine label as its title. */
export function EngineBadge({ engine }: { engine: string | null | undefined }) {
  const intl = useIntl();
  if (!engine) return null;
  const kind = engineKind(engine);
  return (
    <span
      className={`badge engine ${kind === 'natural' ? 'ok' : ''}`}
      title={kind === 'natural' ? intl.formatMessage(m.neural, { engine }) : intl.formatMessage(m.espeak)}
    >
      {intl.formatMessage(ENGINE_KIND[kind])}
    </span>
  );
}

/**
 * What installing the code's default pack would change, in one short sentence that reads as a
 * possibility, not a state ("Would be natural with … installed"); null when nothing.
 */
export function defaultPackHint(
  info: VoiceEngineInfo | undefined,
  intl: IntlShape = currentIntl(),
): string | null {
  if (!info?.default_pack || !info.engine_with_default || info.engine_with_default === info.engine)
    return null;
  return intl.formatMessage(info.engine === 'espeak' ? m.wouldBeNatural : m.defaultNotInstalled, {
    pack: info.default_pack,
  });
}
