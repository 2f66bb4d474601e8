import { useEffect, useRef, useState } from 'react';
import { useIntl } from 'react-intl';
import { RATE_MAX, RATE_MIN, VOLUME_MAX, VOLUME_MIN } from '../../../../electron/shared/options';
import type { ProjectSettings } from '../../../../electron/shared/projects';
import { useStudio } from '../../stores';
import { SliderField } from '../controls/SliderField';

const oneDecimal = (v: number) => v.toFixed(1);

/** The narrator's speed, pitch and volume (nothing when the project has no narrator). */
export function NarratorProsody() {
  const narrator = useStudio((s) => s.project!.characters.find((c) => c.narrator));
  const update = useStudio((s) => s.updateProject);
  const intl = useIntl();
  // Prosody sliders save once the writer stops moving them (one undo step, not fifty).
  const [prosody, setProsody] = useState<Pick<ProjectSettings, 'speed_rate' | 'pitch_rate' | 'volume'>>({});
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  const setProsodyValue = (key: 'speed_rate' | 'pitch_rate' | 'volume', value: number) => {
    const next = { ...prosody, [key]: value };
    setProsody(next);
    clearTimeout(timer.current);
    timer.current = setTimeout(() => {
      void update(next).then(() => setProsody({}));
    }, 500);
  };
  if (!narrator) return null;
  return (
    <>
      <SliderField
        label={intl.formatMessage({
          id: 'projects.settings.narratorSpeed',
          defaultMessage: 'Narrator speed',
        })}
        value={prosody.speed_rate ?? narrator.speed_rate}
        min={RATE_MIN}
        max={RATE_MAX}
        step={0.1}
        format={oneDecimal}
        onChange={(v) => setProsodyValue('speed_rate', v)}
      />
      <SliderField
        label={intl.formatMessage({
          id: 'projects.settings.narratorPitch',
          defaultMessage: 'Narrator pitch',
        })}
        value={prosody.pitch_rate ?? narrator.pitch_rate}
        min={RATE_MIN}
        max={RATE_MAX}
        step={0.1}
        format={oneDecimal}
        onChange={(v) => setProsodyValue('pitch_rate', v)}
      />
      <SliderField
        label={intl.formatMessage({
          id: 'projects.settings.narratorVolume',
          defaultMessage: 'Narrator volume',
        })}
        value={prosody.volume ?? narrator.volume}
        min={VOLUME_MIN}
        max={VOLUME_MAX}
        step={1}
        onChange={(v) => setProsodyValue('volume', v)}
      />
    </>
  );
}
