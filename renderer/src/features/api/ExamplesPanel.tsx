import { useMemo, type ReactNode } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { CopyButton } from '../../components/CopyButton';
import { useStudio } from '../../stores';
import {
  API_LABEL_MESSAGES,
  buildExamples,
  EXAMPLE_LANGUAGES,
  findExample,
  LANGUAGE_LABELS,
  type ExampleApi,
} from './examples';

const EXAMPLE_APIS: readonly ExampleApi[] = ['cloud-poll', 'cloud-direct', 'openai'];

/**
 * Examples in curl, JavaScript and Python (examples.ts: the same text the tests run), with the key
 * created a moment ago when there is one.
 */
export function ExamplesPanel({ base }: { base: string }) {
  const intl = useIntl();
  const created = useStudio((s) => s.apiCreatedKey);
  const language = useStudio((s) => s.apiExampleLanguage);
  const setLanguage = useStudio((s) => s.setApiExampleLanguage);
  const examples = useMemo(() => buildExamples({ baseUrl: base, apiKey: created?.key }), [base, created]);
  return (
    <div className="panel">
      <h2 style={{ marginBottom: 8 }}>
        <FormattedMessage id="api.examples.title" defaultMessage="Examples" />
      </h2>
      <p className="hint">
        {created
          ? intl.formatMessage(
              { id: 'api.examples.withKey', defaultMessage: 'With the key you just created (“{name}”).' },
              { name: created.info.name },
            )
          : intl.formatMessage({
              id: 'api.examples.replaceKey',
              defaultMessage:
                "Replace '<your API key>' with a key (create one above: its text is shown once).",
            })}{' '}
        <FormattedMessage
          id="api.examples.placeholders"
          defaultMessage="The curl lines name <code>'<request_id>'</code> and <code>'<audio_link>'</code>: take them from the previous answer."
          values={{ code: (chunks: ReactNode[]) => <code>{chunks}</code> }}
        />
      </p>
      <div
        className="row"
        role="group"
        aria-label={intl.formatMessage({ id: 'api.examples.language', defaultMessage: 'Example language' })}
        style={{ marginBottom: 12 }}
      >
        {EXAMPLE_LANGUAGES.map((l) => (
          <button
            key={l}
            type="button"
            className={l === language ? 'primary' : undefined}
            aria-pressed={l === language}
            onClick={() => setLanguage(l)}
          >
            {LANGUAGE_LABELS[l]}
          </button>
        ))}
      </div>
      {EXAMPLE_APIS.map((api) => {
        const example = findExample(examples, api, language);
        if (!example) return null;
        return (
          <div key={api} style={{ marginBottom: 12 }}>
            <p className="hint">{intl.formatMessage(API_LABEL_MESSAGES[api])}</p>
            <div className="copy-row" style={{ alignItems: 'start' }}>
              <pre
                className="payload"
                style={{ flex: 1 }}
                tabIndex={0}
                aria-label={intl.formatMessage(
                  { id: 'api.examples.block', defaultMessage: '{language} example: {api}' },
                  { language: LANGUAGE_LABELS[language], api: intl.formatMessage(API_LABEL_MESSAGES[api]) },
                )}
              >
                {example.code}
              </pre>
              <CopyButton
                text={example.code}
                label={intl.formatMessage(
                  { id: 'api.examples.copy', defaultMessage: 'Copy the {language} example: {api}' },
                  { language: LANGUAGE_LABELS[language], api: intl.formatMessage(API_LABEL_MESSAGES[api]) },
                )}
              />
            </div>
          </div>
        );
      })}
      {language.endsWith('openai') && (
        <p className="hint">
          <FormattedMessage
            id="api.examples.openaiOnly"
            defaultMessage="The openai packages speak the OpenAI-compatible route only; for the cloud API use fetch or requests."
          />
        </p>
      )}
    </div>
  );
}
