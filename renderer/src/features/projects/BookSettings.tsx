import { FormattedMessage, defineMessages, useIntl, type MessageDescriptor } from 'react-intl';
import { useId } from 'react';
import {
  MASTERING_PRESETS,
  type BookFormat,
  type MasteringPresetName,
} from '../../../../electron/shared/book-formats';
import { MODEL_IDS } from '../../../../electron/shared/options';
import type { ProjectSettings } from '../../../../electron/shared/projects';
import { VOICES } from '../../../../electron/shared/voices';
import { BookFormatFields } from '../../components/BookFormatFields';
import { SelectField } from '../../components/SelectField';
import { languageName } from '../../lib/intl-text';
import { useStudio } from '../../stores';
import { CoverField } from './CoverField';
import { NarratorProsody } from './NarratorProsody';
import { ProjectVoiceSelect } from './ProjectVoiceSelect';

const LANGUAGES = [...new Map(VOICES.map((v) => [v.language, v.language_name])).entries()];
const FORMAT_LABELS: Record<BookFormat, MessageDescriptor> = defineMessages({
  m4b: { id: 'projects.settings.format.m4b', defaultMessage: 'M4B (chapters)' },
  mp3: { id: 'projects.settings.format.mp3', defaultMessage: 'MP3 (ID3 chapters)' },
  folder: { id: 'projects.settings.format.folder', defaultMessage: 'A file per chapter' },
});
const PRESET_LABELS: Record<MasteringPresetName, MessageDescriptor> = defineMessages({
  acx: { id: 'projects.settings.preset.acx', defaultMessage: 'ACX' },
  podcast: { id: 'projects.settings.preset.podcast', defaultMessage: 'Podcast' },
  none: { id: 'projects.settings.preset.none', defaultMessage: 'None' },
});
/**
 * The open project's book settings, folded under their summary: language, narrator voice and
 * prosody, model, mastering preset, format, cover. Each change is saved at once (one undo step).
 */
export function BookSettings() {
  const detail = useStudio((s) => s.project)!;
  const update = useStudio((s) => s.updateProject);
  const id = useId();
  const intl = useIntl();
  const { project } = detail;
  const narrator = detail.characters.find((c) => c.narrator);
  const save = (settings: ProjectSettings) => void update(settings);
  return (
    <details className="project-settings">
      <summary>
        <FormattedMessage
          id="projects.settings.summary"
          defaultMessage="Book settings: voice, model, mastering, format, cover"
        />
      </summary>
      <div className="project-settings-grid">
        <div className="field">
          <label htmlFor={`${id}-language`}>
            <FormattedMessage id="projects.settings.language" defaultMessage="Language" />
          </label>
          <select
            id={`${id}-language`}
            value={project.language}
            onChange={(e) => save({ language: e.target.value })}
          >
            {!LANGUAGES.some(([code]) => code === project.language) && (
              <option value={project.language}>{languageName(project.language, intl)}</option>
            )}
            {LANGUAGES.map(([code, name]) => (
              <option key={code} value={code}>
                {languageName(code, intl, name)}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor={`${id}-voice`}>
            <FormattedMessage id="projects.settings.narratorVoice" defaultMessage="Narrator voice" />
          </label>
          <ProjectVoiceSelect
            id={`${id}-voice`}
            value={narrator?.voice_code ?? ''}
            onChange={(voice_code) => save({ voice_code })}
          />
        </div>
        <SelectField
          id={`${id}-model`}
          label={<FormattedMessage id="projects.settings.model" defaultMessage="Model" />}
          value={project.model_id}
          options={MODEL_IDS}
          optionLabel={(m) => m}
          onChange={(model_id) => save({ model_id })}
        />
        <SelectField
          id={`${id}-preset`}
          label={<FormattedMessage id="projects.settings.preset" defaultMessage="Mastering preset" />}
          value={project.preset}
          options={MASTERING_PRESETS}
          optionLabel={(p) => intl.formatMessage(PRESET_LABELS[p])}
          onChange={(preset) => save({ preset })}
        />
        <BookFormatFields
          id={`${id}-format`}
          label={<FormattedMessage id="projects.settings.format" defaultMessage="Format" />}
          folderLabel={
            <FormattedMessage id="projects.settings.eachChapterAs" defaultMessage="Each chapter as" />
          }
          format={project.format}
          folderFormat={project.folder_format ?? 'mp3'}
          onFormat={(format) => save({ format })}
          onFolderFormat={(folder_format) => save({ folder_format })}
          formatLabels={FORMAT_LABELS}
        />
        <NarratorProsody />
        <CoverField />
      </div>
    </details>
  );
}
