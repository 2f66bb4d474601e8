import { useEffect, useId, useRef, useState } from 'react';
import { defineMessages, FormattedMessage, useIntl, type MessageDescriptor } from 'react-intl';
import {
  BOOK_FORMATS,
  FOLDER_FORMATS,
  MASTERING_PRESETS,
  type BookFormat,
  type FolderFormat,
  type MasteringPresetName,
} from '../../../../electron/shared/book-formats';
import {
  MODEL_IDS,
  RATE_MAX,
  RATE_MIN,
  VOLUME_MAX,
  VOLUME_MIN,
  type ModelId,
} from '../../../../electron/shared/options';
import type { ProjectSettings } from '../../../../electron/shared/projects';
import { VOICES } from '../../../../electron/shared/voices';
import { ProjectVoiceSelect } from './ProjectVoiceSelect';
import { languageName } from '../../lib/intl-text';
import { readBase64 } from '../../lib/read-file';
import { useStudio } from '../../stores';
import { SliderField } from '../controls/SliderField';
import { ProjectCover } from './ProjectCover';
import { ProjectRecastOffer } from './ProjectRecastOffer';
import { formatLength } from './project-format';

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
const COVER_ERRORS = defineMessages({
  type: { id: 'projects.settings.cover.type', defaultMessage: 'The cover must be a JPEG or PNG picture.' },
  size: { id: 'projects.settings.cover.size', defaultMessage: 'The cover must be at most 2 MiB.' },
});
const MAX_COVER_BYTES = 2 * 1024 * 1024;
const oneDecimal = (v: number) => v.toFixed(1);

/** A text box that saves on blur or Enter (not on every keystroke: each save is one undo step). */
function CommitInput({
  id,
  value,
  onCommit,
  placeholder,
}: {
  id: string;
  value: string;
  onCommit(value: string): void;
  placeholder?: string;
}) {
  const [draft, setDraft] = useState<string | null>(null);
  const commit = () => {
    if (draft !== null && draft !== value) onCommit(draft);
    setDraft(null);
  };
  return (
    <input
      id={id}
      type="text"
      value={draft ?? value}
      placeholder={placeholder}
      onChange={(e) => setDraft(e.target.value)}
      onBlur={commit}
      onKeyDown={(e) => {
        if (e.key === 'Enter') commit();
        if (e.key === 'Escape') setDraft(null);
      }}
    />
  );
}

/**
 * The open project's head: cover, title and author (editable), Undo/Redo, and the book's settings
 * (language, narrator voice and prosody, model, mastering preset, format).
 */
export function ProjectHeader() {
  const detail = useStudio((s) => s.project)!;
  const update = useStudio((s) => s.updateProject);
  const closeProject = useStudio((s) => s.closeProject);
  const undo = useStudio((s) => s.undo);
  const redo = useStudio((s) => s.redo);
  const id = useId();
  const intl = useIntl();
  const coverInput = useRef<HTMLInputElement>(null);
  const [coverError, setCoverError] = useState<MessageDescriptor | null>(null);
  const { project } = detail;
  const narrator = detail.characters.find((c) => c.narrator);
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
  const save = (settings: ProjectSettings) => void update(settings);

  const chooseCover = async (file: File | undefined) => {
    setCoverError(null);
    if (!file) return;
    if (!/^image\/(jpeg|png)$/.test(file.type)) return setCoverError(COVER_ERRORS.type);
    if (file.size > MAX_COVER_BYTES) return setCoverError(COVER_ERRORS.size);
    save({ cover: await readBase64(file) });
  };

  return (
    <div className="panel project-head">
      <div className="project-head-main">
        <ProjectCover
          projectId={project.id}
          title={project.title}
          hasCover={project.has_cover}
          version={project.updated_at}
          size={64}
        />
        <div className="project-head-fields">
          <div className="row">
            <button type="button" className="link small" onClick={closeProject}>
              <FormattedMessage id="projects.head.allProjects" defaultMessage="← All projects" />
            </button>
          </div>
          <div className="project-title-row">
            <label className="visually-hidden" htmlFor={`${id}-title`}>
              <FormattedMessage id="projects.head.bookTitle" defaultMessage="Book title" />
            </label>
            <CommitInput
              id={`${id}-title`}
              value={project.title}
              onCommit={(title) => title.trim() && save({ title: title.trim() })}
            />
            <label className="visually-hidden" htmlFor={`${id}-author`}>
              <FormattedMessage id="projects.head.author" defaultMessage="Author" />
            </label>
            <CommitInput
              id={`${id}-author`}
              value={project.author ?? ''}
              placeholder={intl.formatMessage({ id: 'projects.head.author', defaultMessage: 'Author' })}
              onCommit={(author) => save({ author: author.trim() || null })}
            />
          </div>
          <p className="small muted">
            <FormattedMessage
              id="projects.head.facts"
              defaultMessage="{chapters, plural, one {# chapter} other {# chapters}} · {done, number} / {total, number} segments rendered · {length}"
              values={{
                chapters: project.chapter_count,
                done: project.segments_done,
                total: project.segment_count,
                length: formatLength(project.duration_ms, intl),
              }}
            />
            {project.source_name && (
              <>
                {' '}
                <FormattedMessage
                  id="projects.head.source"
                  defaultMessage="· from {file}"
                  values={{ file: project.source_name }}
                />
              </>
            )}
          </p>
        </div>
        <div
          className="row project-undo"
          role="group"
          aria-label={intl.formatMessage({ id: 'projects.head.history', defaultMessage: 'History' })}
        >
          <button
            type="button"
            onClick={() => void undo()}
            disabled={!project.can_undo}
            // eslint-disable-next-line messages/no-words-in-jsx -- key names, the same in every language
            title="Ctrl+Z / ⌘Z"
          >
            <FormattedMessage id="projects.head.undo" defaultMessage="Undo" />
          </button>
          <button
            type="button"
            onClick={() => void redo()}
            disabled={!project.can_redo}
            // eslint-disable-next-line messages/no-words-in-jsx -- key names, the same in every language
            title="Ctrl+Shift+Z / ⌘⇧Z"
          >
            <FormattedMessage id="projects.head.redo" defaultMessage="Redo" />
          </button>
        </div>
      </div>
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
          <div className="field">
            <label htmlFor={`${id}-model`}>
              <FormattedMessage id="projects.settings.model" defaultMessage="Model" />
            </label>
            <select
              id={`${id}-model`}
              value={project.model_id}
              onChange={(e) => save({ model_id: e.target.value as ModelId })}
            >
              {MODEL_IDS.map((m) => (
                <option key={m}>{m}</option>
              ))}
            </select>
          </div>
          <div className="field">
            <label htmlFor={`${id}-preset`}>
              <FormattedMessage id="projects.settings.preset" defaultMessage="Mastering preset" />
            </label>
            <select
              id={`${id}-preset`}
              value={project.preset}
              onChange={(e) => save({ preset: e.target.value as MasteringPresetName })}
            >
              {MASTERING_PRESETS.map((p) => (
                <option key={p} value={p}>
                  {intl.formatMessage(PRESET_LABELS[p])}
                </option>
              ))}
            </select>
          </div>
          <div className="field">
            <label htmlFor={`${id}-format`}>
              <FormattedMessage id="projects.settings.format" defaultMessage="Format" />
            </label>
            <select
              id={`${id}-format`}
              value={project.format}
              onChange={(e) => save({ format: e.target.value as BookFormat })}
            >
              {BOOK_FORMATS.map((f) => (
                <option key={f} value={f}>
                  {intl.formatMessage(FORMAT_LABELS[f])}
                </option>
              ))}
            </select>
          </div>
          {project.format === 'folder' && (
            <div className="field">
              <label htmlFor={`${id}-folder`}>
                <FormattedMessage id="projects.settings.eachChapterAs" defaultMessage="Each chapter as" />
              </label>
              <select
                id={`${id}-folder`}
                value={project.folder_format ?? 'mp3'}
                onChange={(e) => save({ folder_format: e.target.value as FolderFormat })}
              >
                {FOLDER_FORMATS.map((f) => (
                  <option key={f} value={f}>
                    {f.toUpperCase()}
                  </option>
                ))}
              </select>
            </div>
          )}
          {narrator && (
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
          )}
          <div className="field">
            <span className="field-label">
              <FormattedMessage id="projects.settings.cover" defaultMessage="Cover" />
            </span>
            <div className="row">
              <input
                ref={coverInput}
                type="file"
                accept="image/jpeg,image/png"
                className="visually-hidden"
                tabIndex={-1}
                aria-label={intl.formatMessage({
                  id: 'projects.settings.coverFile',
                  defaultMessage: 'Book cover (JPEG or PNG, at most 2 MiB)',
                })}
                onChange={(e) => void chooseCover(e.target.files?.[0])}
              />
              <button type="button" onClick={() => coverInput.current?.click()}>
                {project.has_cover ? (
                  <FormattedMessage id="projects.settings.changeCover" defaultMessage="Change cover…" />
                ) : (
                  <FormattedMessage id="projects.settings.chooseCover" defaultMessage="Choose cover…" />
                )}
              </button>
              {project.has_cover && (
                <button type="button" className="link" onClick={() => save({ cover: null })}>
                  <FormattedMessage id="projects.settings.removeCover" defaultMessage="Remove cover" />
                </button>
              )}
            </div>
            {coverError && <p className="error">{intl.formatMessage(coverError)}</p>}
          </div>
        </div>
      </details>
      <ProjectRecastOffer />
    </div>
  );
}
