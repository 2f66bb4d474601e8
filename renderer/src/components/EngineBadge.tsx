import type { VoiceEngineInfo } from '../../../electron/shared/voice-packs';
import { engineKind } from '../stores/voice-packs-slice';

/** "natural" (a neural pack) or "basic" (eSpeak), with the engine label as its title. */
export function EngineBadge({ engine }: { engine: string | null | undefined }) {
  if (!engine) return null;
  const kind = engineKind(engine);
  return (
    <span
      className={`badge engine ${kind === 'natural' ? 'ok' : ''}`}
      title={
        kind === 'natural' ? `Spoken by the neural voice ${engine}` : 'Spoken by eSpeak, the basic engine'
      }
    >
      {kind}
    </span>
  );
}

/**
 * What installing the code's default pack would change, in one short sentence that reads as a
 * possibility, not a state ("Would be natural with … installed"); null when nothing.
 */
export function defaultPackHint(info: VoiceEngineInfo | undefined): string | null {
  if (!info?.default_pack || !info.engine_with_default || info.engine_with_default === info.engine)
    return null;
  return info.engine === 'espeak'
    ? `Would be natural with ${info.default_pack} installed`
    : `Its default voice is in ${info.default_pack} (not installed)`;
}
