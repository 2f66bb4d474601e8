import { useEffect, useId, useRef, useState } from 'react';
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
import { VoiceSelect } from '../../components/VoiceSelect';
import { readBase64 } from '../../lib/read-file';
import { useStudio } from '../../stores';
import { SliderField } from '../controls/SliderField';
import { ProjectCover } from './ProjectCover';
import { formatLength } from './project-format';
import { formatNumber } from '../../lib/format';

const LANGUAGES = [...new Map(VOICES.map((v) => [v.language, v.language_name])).entries()];
const FORMAT_LABELS: Record<BookFormat, string> = {
  m4b: 'M4B (chapters)',
  mp3: 'MP3 (ID3 chapters)',
  folder: 'A file per chapter',
};
const PRESET_LABELS: Record<MasteringPresetName, string> = { acx: 'ACX', podcast: 'Podcast', none: 'None' };
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
  const coverInput = useRef<HTMLInputElement>(null);
  const [coverError, setCoverError] = useState<string | null>(null);
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
    if (!/^image\/(jpeg|png)$/.test(file.type))
      return setCoverError('The cover must be a JPEG or PNG picture.');
    if (file.size > MAX_COVER_BYTES) return setCoverError('The cover must be at most 2 MiB.');
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
              ← All projects
            </button>
          </div>
          <div className="project-title-row">
            <label className="visually-hidden" htmlFor={`${id}-title`}>
              Book title
            </label>
            <CommitInput
              id={`${id}-title`}
              value={project.title}
              onCommit={(title) => title.trim() && save({ title: title.trim() })}
            />
            <label className="visually-hidden" htmlFor={`${id}-author`}>
              Author
            </label>
            <CommitInput
              id={`${id}-author`}
              value={project.author ?? ''}
              placeholder="Author"
              onCommit={(author) => save({ author: author.trim() || null })}
            />
          </div>
          <p className="small muted">
            {project.chapter_count} chapters · {formatNumber(project.segments_done)} /{' '}
            {formatNumber(project.segment_count)} segments rendered · {formatLength(project.duration_ms)}
            {project.source_name ? ` · from ${project.source_name}` : ''}
          </p>
        </div>
        <div className="row project-undo" role="group" aria-label="History">
          <button type="button" onClick={() => void undo()} disabled={!project.can_undo} title="Ctrl+Z / ⌘Z">
            Undo
          </button>
          <button
            type="button"
            onClick={() => void redo()}
            disabled={!project.can_redo}
            title="Ctrl+Shift+Z / ⌘⇧Z"
          >
            Redo
          </button>
        </div>
      </div>
      <details className="project-settings">
        <summary>Book settings: voice, model, mastering, format, cover</summary>
        <div className="project-settings-grid">
          <div className="field">
            <label htmlFor={`${id}-language`}>Language</label>
            <select
              id={`${id}-language`}
              value={project.language}
              onChange={(e) => save({ language: e.target.value })}
            >
              {!LANGUAGES.some(([code]) => code === project.language) && (
                <option value={project.language}>{project.language}</option>
              )}
              {LANGUAGES.map(([code, name]) => (
                <option key={code} value={code}>
                  {name}
                </option>
              ))}
            </select>
          </div>
          <div className="field">
            <label htmlFor={`${id}-voice`}>Narrator voice</label>
            <VoiceSelect
              id={`${id}-voice`}
              value={narrator?.voice_code ?? ''}
              onChange={(voice_code) => save({ voice_code })}
            />
          </div>
          <div className="field">
            <label htmlFor={`${id}-model`}>Model</label>
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
            <label htmlFor={`${id}-preset`}>Mastering preset</label>
            <select
              id={`${id}-preset`}
              value={project.preset}
              onChange={(e) => save({ preset: e.target.value as MasteringPresetName })}
            >
              {MASTERING_PRESETS.map((p) => (
                <option key={p} value={p}>
                  {PRESET_LABELS[p]}
                </option>
              ))}
            </select>
          </div>
          <div className="field">
            <label htmlFor={`${id}-format`}>Format</label>
            <select
              id={`${id}-format`}
              value={project.format}
              onChange={(e) => save({ format: e.target.value as BookFormat })}
            >
              {BOOK_FORMATS.map((f) => (
                <option key={f} value={f}>
                  {FORMAT_LABELS[f]}
                </option>
              ))}
            </select>
          </div>
          {project.format === 'folder' && (
            <div className="field">
              <label htmlFor={`${id}-folder`}>Each chapter as</label>
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
                label="Narrator speed"
                value={prosody.speed_rate ?? narrator.speed_rate}
                min={RATE_MIN}
                max={RATE_MAX}
                step={0.1}
                format={oneDecimal}
                onChange={(v) => setProsodyValue('speed_rate', v)}
              />
              <SliderField
                label="Narrator pitch"
                value={prosody.pitch_rate ?? narrator.pitch_rate}
                min={RATE_MIN}
                max={RATE_MAX}
                step={0.1}
                format={oneDecimal}
                onChange={(v) => setProsodyValue('pitch_rate', v)}
              />
              <SliderField
                label="Narrator volume"
                value={prosody.volume ?? narrator.volume}
                min={VOLUME_MIN}
                max={VOLUME_MAX}
                step={1}
                onChange={(v) => setProsodyValue('volume', v)}
              />
            </>
          )}
          <div className="field">
            <span className="field-label">Cover</span>
            <div className="row">
              <input
                ref={coverInput}
                type="file"
                accept="image/jpeg,image/png"
                className="visually-hidden"
                tabIndex={-1}
                aria-label="Book cover (JPEG or PNG, at most 2 MiB)"
                onChange={(e) => void chooseCover(e.target.files?.[0])}
              />
              <button type="button" onClick={() => coverInput.current?.click()}>
                {project.has_cover ? 'Change cover…' : 'Choose cover…'}
              </button>
              {project.has_cover && (
                <button type="button" className="link" onClick={() => save({ cover: null })}>
                  Remove cover
                </button>
              )}
            </div>
            {coverError && <p className="error">{coverError}</p>}
          </div>
        </div>
      </details>
    </div>
  );
}
