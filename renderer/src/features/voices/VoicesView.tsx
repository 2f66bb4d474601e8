import { useId, useMemo, useState } from 'react';
import type { Voice } from '../../../../electron/shared/api';
import { CopyButton } from '../../components/CopyButton';
import { defaultPackHint, EngineBadge } from '../../components/EngineBadge';
import { AuditionButton } from '../../components/AuditionButton';
import { useAudition } from '../../lib/useAudition';
import { useStudio } from '../../stores';
import { CustomVoicesSection } from './CustomVoicesSection';
import { Workbench } from './workbench/Workbench';

type Filter = { language: string; gender: string; accent: string; price: string; query: string };
const ALL = '';

/** Voices matching the filters and the search (name, code, accent, language). */
export function filterVoices(voices: readonly Voice[], f: Filter): Voice[] {
  const q = f.query.trim().toLowerCase();
  return voices.filter(
    (v) =>
      (f.language === ALL || v.language_name === f.language) &&
      (f.gender === ALL || v.gender === f.gender) &&
      (f.accent === ALL || v.accent === f.accent) &&
      (f.price === ALL || String(v.price) === f.price) &&
      (q === '' || `${v.name} ${v.voice_code} ${v.accent} ${v.language_name}`.toLowerCase().includes(q)),
  );
}

/** All voices grouped by language, with filters, search, audition and copy-code. */
export function VoicesView() {
  const voices = useStudio((s) => s.voices);
  const selected = useStudio((s) => s.options.voice_code);
  const options = useStudio((s) => s.options);
  const setOption = useStudio((s) => s.setOption);
  const setView = useStudio((s) => s.setView);
  const engines = useStudio((s) => s.voiceEngines);
  const id = useId();
  const [filter, setFilter] = useState<Filter>({
    language: ALL,
    gender: ALL,
    accent: ALL,
    price: ALL,
    query: '',
  });
  const audition = useAudition();

  const shown = useMemo(() => filterVoices(voices, filter), [voices, filter]);
  const languages = [...new Set(voices.map((v) => v.language_name))];
  const accents = [...new Set(voices.map((v) => v.accent))].sort();
  const groups = languages
    .map((l) => ({ language: l, voices: shown.filter((v) => v.language_name === l) }))
    .filter((g) => g.voices.length > 0);

  const set = (key: keyof Filter) => (e: { target: { value: string } }) =>
    setFilter((f) => ({ ...f, [key]: e.target.value }));

  return (
    <>
      <div className="page-head">
        <div>
          <h1>Voices</h1>
          <p>
            {voices.length} voices. Play one to audition it with your current speed, pitch and volume (free).
          </p>
        </div>
      </div>
      <Workbench />
      <CustomVoicesSection />
      <div className="panel">
        <h2 className="visually-hidden">Catalogue voices</h2>
        <div className="voice-filters" role="search">
          <div className="field">
            <label htmlFor={`${id}-q`}>Search</label>
            <input
              id={`${id}-q`}
              type="search"
              placeholder="Name, code, accent…"
              value={filter.query}
              onChange={set('query')}
            />
          </div>
          <div className="field">
            <label htmlFor={`${id}-lang`}>Language</label>
            <select id={`${id}-lang`} value={filter.language} onChange={set('language')}>
              <option value="">All languages</option>
              {languages.map((l) => (
                <option key={l}>{l}</option>
              ))}
            </select>
          </div>
          <div className="field">
            <label htmlFor={`${id}-gender`}>Gender</label>
            <select id={`${id}-gender`} value={filter.gender} onChange={set('gender')}>
              <option value="">Any</option>
              <option value="female">Female</option>
              <option value="male">Male</option>
            </select>
          </div>
          <div className="field">
            <label htmlFor={`${id}-accent`}>Accent</label>
            <select id={`${id}-accent`} value={filter.accent} onChange={set('accent')}>
              <option value="">Any</option>
              {accents.map((a) => (
                <option key={a}>{a}</option>
              ))}
            </select>
          </div>
          <div className="field">
            <label htmlFor={`${id}-price`}>Price</label>
            <select id={`${id}-price`} value={filter.price} onChange={set('price')}>
              <option value="">Any</option>
              <option value="100">100 / 1000 chars</option>
              <option value="1000">1000 / 1000 chars</option>
            </select>
          </div>
          <span className="muted small" aria-live="polite">
            {shown.length} shown
          </span>
        </div>
        {groups.length === 0 && <p className="muted">No voice matches these filters.</p>}
        {groups.map((g) => (
          <section key={g.language} className="voice-group" aria-label={`${g.language} voices`}>
            <h3>{g.language}</h3>
            <ul className="voice-list">
              {g.voices.map((v) => (
                <li
                  key={v.voice_code}
                  className={`voice-card${v.voice_code === selected ? ' selected' : ''}`}
                >
                  <div className="row">
                    <span className="name">{v.name}</span>
                    <EngineBadge engine={engines[v.voice_code]?.engine} />
                    <span className="badge">{v.gender}</span>
                    <span className="badge">{v.accent}</span>
                    {v.accent_approximated && (
                      <span
                        className="badge warn"
                        title="The engine has no such accent; this voice approximates it."
                      >
                        accent approximated
                      </span>
                    )}
                  </div>
                  <div className="copy-row">
                    <code>{v.voice_code}</code>
                    <CopyButton text={v.voice_code} label={`Copy code ${v.voice_code}`} />
                  </div>
                  {defaultPackHint(engines[v.voice_code]) && (
                    <button
                      type="button"
                      className="link small engine-hint"
                      onClick={() => setView('library')}
                    >
                      {defaultPackHint(engines[v.voice_code])}
                    </button>
                  )}
                  <div className="row">
                    <span
                      className="small muted price"
                      title={
                        v.standard
                          ? 'Standard voice: the model choice applies.'
                          : 'Not a standard voice: the model choice does not apply.'
                      }
                    >
                      {v.price} credits / 1k chars
                    </span>
                    <span className="spacer" />
                    <AuditionButton
                      audition={audition}
                      id={v.voice_code}
                      label={`a sample of ${v.name} (${v.voice_code})`}
                      onToggle={() =>
                        audition.toggle(v.voice_code, v.voice_code, {
                          speed_rate: options.speed_rate,
                          pitch_rate: options.pitch_rate,
                          volume: options.volume,
                        })
                      }
                    />
                    <button
                      type="button"
                      className={v.voice_code === selected ? '' : 'primary'}
                      aria-label={`${v.voice_code === selected ? 'In use:' : 'Use'} ${v.name} (${v.voice_code})`}
                      onClick={() => {
                        setOption('voice_code', v.voice_code);
                        setView('studio');
                      }}
                    >
                      {v.voice_code === selected ? 'In use' : 'Use'}
                    </button>
                  </div>
                  {audition.error?.key === v.voice_code && <p className="error">{audition.error.message}</p>}
                </li>
              ))}
            </ul>
          </section>
        ))}
      </div>
    </>
  );
}
