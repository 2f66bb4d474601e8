import { defineMessages, FormattedMessage, useIntl, type IntlShape } from 'react-intl';
import type { VoicePackInfo } from '../../../../electron/shared/voice-packs';
import type { LanguageCode } from '../../../../electron/shared/voices';
import { BusyButton } from '../../components/BusyButton';
import { formatBytes } from '../../lib/format';
import { languageName } from '../../lib/intl-text';
import { useStudio } from '../../stores';
import { licenceText } from '../voice-library/licence-text';
import type { FirstRunOfferState } from './first-run-offer-state';
import { OFFER_LANGUAGES, packForLanguage, sourceLabel } from './voice-offer';

const LANGUAGE_NAME = new Map(OFFER_LANGUAGES.map((l) => [l.code, l.name]));

const m = defineMessages<{
  packLabel: { id: string };
  packSummary: { family: string; quality: string; languages: string };
  total: { count: number; size: string };
  without: { languages: string };
}>({
  packLabel: { id: 'firstRun.packLabel', defaultMessage: 'Voice pack {id}' },
  packSummary: {
    id: 'firstRun.packSummary',
    defaultMessage:
      '{family}, {quality, select, x_low {x low} low {low} medium {medium} high {high} other {{quality}}} quality · for {languages}',
  },
  total: {
    id: 'firstRun.total',
    defaultMessage: '{count, plural, one {# voice pack} other {# voice packs}}, {size} in all.',
  },
  without: {
    id: 'firstRun.without',
    defaultMessage: '{languages}: no natural voice exists yet; eSpeak speaks it.',
  },
});

/** The chosen languages' names, in the interface's language: "English, French". */
function namesOf(codes: readonly LanguageCode[], intl: IntlShape): string {
  return codes.map((c) => languageName(c, intl, LANGUAGE_NAME.get(c))).join(', ');
}

/** "Piper, medium quality · for Vietnamese" */
function packSummary(pack: VoicePackInfo, languages: readonly LanguageCode[], intl: IntlShape): string {
  return intl.formatMessage(m.packSummary, {
    family: pack.family === 'kokoro' ? 'Kokoro' : 'Piper',
    quality: pack.quality,
    languages: namesOf(languages, intl),
  });
}

/** The offer: the languages to tick, the packs they need (size, licence, source), Skip and Download. */
export function FirstRunChoice({ id, offer }: { id: string; offer: FirstRunOfferState }) {
  const intl = useIntl();
  const { offered, without, bytes, problem, saving, skip, download } = offer;
  return (
    <>
      <h2 id={`${id}-title`}>
        <FormattedMessage id="firstRun.title" defaultMessage="Natural voices for your languages" />
      </h2>
      <p id={`${id}-intro`}>
        <FormattedMessage
          id="firstRun.intro"
          defaultMessage="Until a natural voice is installed, Narration Studio speaks with eSpeak, a basic engine. Pick the languages you write in: their voices download in the background while you work, and run on this computer."
        />
      </p>
      <fieldset className="first-run-languages">
        <legend>
          <FormattedMessage id="firstRun.languages" defaultMessage="Languages you write in" />
        </legend>
        <ul>
          {OFFER_LANGUAGES.map((language) => (
            <LanguageChoice key={language.code} id={id} language={language} offer={offer} />
          ))}
        </ul>
      </fieldset>
      <h3 className="first-run-subhead" id={`${id}-packs`}>
        <FormattedMessage id="firstRun.toDownload" defaultMessage="To download" />
      </h3>
      {offered.length === 0 ? (
        <p className="muted small">
          <FormattedMessage id="firstRun.nothing" defaultMessage="Nothing: tick a language above." />
        </p>
      ) : (
        <ul className="first-run-packs" aria-labelledby={`${id}-packs`}>
          {offered.map(({ pack, languages }) => (
            <OfferedPack key={pack.id} pack={pack} languages={languages} />
          ))}
        </ul>
      )}
      <p className="small" aria-live="polite">
        {[
          offered.length > 0 &&
            intl.formatMessage(m.total, { count: offered.length, size: formatBytes(bytes) }),
          without.length > 0 && intl.formatMessage(m.without, { languages: namesOf(without, intl) }),
        ]
          .filter(Boolean)
          .join(' ')}
      </p>
      {problem && <p className="error">{problem}</p>}
      <div className="row confirm-actions">
        <BusyButton busy={saving} onClick={() => void skip()}>
          <FormattedMessage id="firstRun.skip" defaultMessage="Skip" />
        </BusyButton>
        <BusyButton
          className="primary"
          busy={saving}
          unavailable={offered.length === 0}
          onClick={() => void download()}
        >
          <FormattedMessage
            id="firstRun.download"
            defaultMessage="{count, plural, =0 {Download} =1 {Download} other {Download # voice packs}}"
            values={{ count: offered.length }}
          />
        </BusyButton>
      </div>
      <p className="hint small">
        <FormattedMessage
          id="firstRun.later"
          defaultMessage="You can download or import voices at any time in the Voice library."
        />
      </p>
    </>
  );
}

/** A language to tick (greyed, with why, when no natural voice speaks it). */
function LanguageChoice({
  id,
  language,
  offer,
}: {
  id: string;
  language: (typeof OFFER_LANGUAGES)[number];
  offer: FirstRunOfferState;
}) {
  const intl = useIntl();
  const packs = useStudio((s) => s.voicePacks);
  const engines = useStudio((s) => s.voiceEngines);
  const { chosen, toggle } = offer;
  const speaks = packForLanguage(language.code, packs, engines) !== undefined;
  const inputId = `${id}-${language.code}`;
  return (
    <li>
      <input
        id={inputId}
        type="checkbox"
        checked={speaks && chosen.includes(language.code)}
        disabled={!speaks}
        {...(speaks ? {} : { 'aria-describedby': `${inputId}-none` })}
        onChange={(e) => toggle(language.code, e.target.checked)}
      />
      <label htmlFor={inputId}>{languageName(language.code, intl, language.name)}</label>
      {!speaks && (
        <span id={`${inputId}-none`} className="small muted">
          <FormattedMessage id="firstRun.noNaturalVoice" defaultMessage="no natural voice yet" />
        </span>
      )}
    </li>
  );
}

/** A pack to download: its size, family and quality, licence and source. */
function OfferedPack({ pack, languages }: { pack: VoicePackInfo; languages: readonly LanguageCode[] }) {
  const intl = useIntl();
  const source = sourceLabel(pack.source_url);
  return (
    <li aria-label={intl.formatMessage(m.packLabel, { id: pack.id })}>
      <div className="row">
        <span className="pack-name">{pack.id}</span>
        <span className="spacer" />
        <span className="small">{formatBytes(pack.size)}</span>
      </div>
      <div className="small muted">{packSummary(pack, languages, intl)}</div>
      <div className="small">
        <FormattedMessage
          id="firstRun.licence"
          defaultMessage="Licence: {licence}"
          values={{ licence: licenceText(pack, intl) }}
        />
        {source && pack.source_url && (
          <>
            {' · '}
            <FormattedMessage
              id="firstRun.source"
              defaultMessage="Source: <a>{source}</a>"
              values={{
                source,
                a: (chunks) => (
                  <a href={pack.source_url!} target="_blank" rel="noreferrer">
                    {chunks}
                  </a>
                ),
              }}
            />
          </>
        )}
      </div>
    </li>
  );
}
