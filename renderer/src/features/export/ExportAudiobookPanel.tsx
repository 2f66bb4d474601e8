import { useId } from 'react';
import { defineMessages, FormattedMessage, useIntl } from 'react-intl';
import {
  MASTERING_PRESETS,
  type BookFormat,
  type ExportBody,
  type FolderFormat,
  type MasteringPresetName,
} from '../../../../electron/shared/book-exports';
import { BookFormatFields } from '../../components/BookFormatFields';
import { BusyButton } from '../../components/BusyButton';
import { SelectField } from '../../components/SelectField';
import { VoiceSelect } from '../../components/VoiceSelect';
import { formatCredits, formatNumber } from '../../lib/format';
import { catalogueVoiceOf } from '../../lib/voice-codes';
import { useStudio } from '../../stores';

const PRESET_LABELS = defineMessages<MasteringPresetName>({
  acx: { id: 'export.preset.acx', defaultMessage: 'ACX (audiobook retailers)' },
  podcast: { id: 'export.preset.podcast', defaultMessage: 'Podcast' },
  none: { id: 'export.preset.none', defaultMessage: 'None' },
});

/** What each preset aims at (docs/USER-GUIDE.md, "Chapters and audiobook export"). */
const PRESET_HINTS = defineMessages<MasteringPresetName>({
  acx: {
    id: 'export.preset.acx.hint',
    defaultMessage: 'RMS −23 to −18 dBFS, peaks at most −3 dBFS, room tone, 44.1 kHz.',
  },
  podcast: {
    id: 'export.preset.podcast.hint',
    defaultMessage: '−16 LUFS integrated (±1 LU), peaks at most −1 dBFS, 44.1 kHz.',
  },
  none: { id: 'export.preset.none.hint', defaultMessage: 'The voice as rendered: no gain, no limiter.' },
});

/** The audiobook: voice, mastering preset, format, Export book and Cancel export. */
export function ExportAudiobookPanel({
  busy,
  running,
  onStart,
  onCancel,
}: {
  busy: boolean;
  running: boolean;
  onStart(body: ExportBody): void;
  onCancel(): void;
}) {
  const id = useId();
  const intl = useIntl();
  const options = useStudio((s) => s.options);
  const customVoices = useStudio((s) => s.customVoices);
  const draft = useStudio((s) => s.exportDraft);
  const update = useStudio((s) => s.updateExportDraft);
  const { text, title, author, preset, format, folderFormat, cover } = draft;
  const voice = draft.voice ?? options.voice_code;
  const setVoice = (value: string) => update({ voice: value });
  const setPreset = (value: MasteringPresetName) => update({ preset: value });
  const setFormat = (value: BookFormat) => update({ format: value });
  const setFolderFormat = (value: FolderFormat) => update({ folderFormat: value });
  const voiceInfo = catalogueVoiceOf(voice, customVoices);
  const start = () =>
    onStart({
      input_text: text,
      voice_code: voice,
      model_id: options.model_id,
      speed_rate: options.speed_rate,
      pitch_rate: options.pitch_rate,
      volume: options.volume,
      preset,
      format,
      ...(format === 'folder' ? { folder_format: folderFormat } : {}),
      ...(title.trim() ? { title: title.trim() } : {}),
      ...(author.trim() ? { author: author.trim() } : {}),
      ...(cover ? { cover: cover.base64 } : {}),
    });

  return (
    <aside className="panel">
      <div className="panel-head">
        <h2>
          <FormattedMessage id="export.audiobook.heading" defaultMessage="Audiobook" />
        </h2>
      </div>
      <div className="field">
        <label htmlFor={`${id}-voice`}>
          <FormattedMessage id="export.voice" defaultMessage="Voice" />
        </label>
        <VoiceSelect id={`${id}-voice`} value={voice} onChange={setVoice} />
        <p className="hint">
          <FormattedMessage
            id="export.voice.hint"
            defaultMessage="Speed {speed}, pitch {pitch} and volume {volume} come from the Studio."
            values={{
              speed: formatNumber(options.speed_rate, { digits: 1 }),
              pitch: formatNumber(options.pitch_rate, { digits: 1 }),
              volume: options.volume,
            }}
          />{' '}
          {voiceInfo && (
            <FormattedMessage
              id="export.voice.price"
              defaultMessage="{credits} credits per {characters} characters."
              values={{ credits: formatCredits(voiceInfo.price), characters: formatNumber(1000) }}
            />
          )}
        </p>
      </div>
      <SelectField
        id={`${id}-preset`}
        label={<FormattedMessage id="export.preset" defaultMessage="Mastering preset" />}
        value={preset}
        options={MASTERING_PRESETS}
        optionLabel={(p) => intl.formatMessage(PRESET_LABELS[p])}
        onChange={setPreset}
        hint={intl.formatMessage(PRESET_HINTS[preset])}
      />
      <BookFormatFields
        id={`${id}-format`}
        label={<FormattedMessage id="export.format" defaultMessage="Format" />}
        folderLabel={<FormattedMessage id="export.folderFormat" defaultMessage="Each chapter as" />}
        format={format}
        folderFormat={folderFormat}
        onFormat={setFormat}
        onFolderFormat={setFolderFormat}
      />
      <div className="row">
        <BusyButton
          className="primary"
          onClick={start}
          busy={busy || running}
          unavailable={text.trim() === ''}
        >
          <FormattedMessage id="export.start" defaultMessage="Export book" />
        </BusyButton>
        {running && (
          <button type="button" className="danger" onClick={onCancel}>
            <FormattedMessage id="export.cancel" defaultMessage="Cancel export" />
          </button>
        )}
      </div>
    </aside>
  );
}
