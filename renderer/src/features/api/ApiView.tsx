import { useEffect, useId, useMemo, useState, type ReactNode } from 'react';
import {
  defineMessages,
  FormattedMessage,
  useIntl,
  type IntlShape,
  type MessageDescriptor,
} from 'react-intl';
import type { ApiKeyInfo, LedgerKind } from '../../../../electron/shared/api';
import { KEY_FILTER_ALL } from '../../../../electron/shared/api';
import { ConfirmDialog, type ConfirmRequest } from '../../components/ConfirmDialog';
import { CopyButton } from '../../components/CopyButton';
import { keyName, KeySelect } from '../../components/KeySelect';
import { studioUrl } from '../../lib/api-client';
import { formatCredits, formatTime } from '../../lib/format';
import { getDesktop } from '../../lib/desktop';
import { useStudio } from '../../stores';
import { creditsProblem, MAX_CREDITS_ADDED } from '../../stores/api-view-slice';
import {
  API_LABEL_MESSAGES,
  buildExamples,
  EXAMPLE_LANGUAGES,
  findExample,
  LANGUAGE_LABELS,
  type ExampleApi,
} from './examples';

const EXAMPLE_APIS: readonly ExampleApi[] = ['cloud-poll', 'cloud-direct', 'openai'];
const m = defineMessages({
  routeSpeech: {
    id: 'api.routes.speech',
    defaultMessage: 'speech: the audio itself, streamed as it renders',
  },
  routeModels: {
    id: 'api.routes.models',
    defaultMessage: "the models (OpenAI's names and ours); no key needed",
  },
  routeVoices: {
    id: 'api.routes.voices',
    defaultMessage: "the voices: OpenAI's names, Kokoro's and every voice code; no key needed",
  },
  routeCaptioned: {
    id: 'api.routes.captioned',
    defaultMessage: "Kokoro-FastAPI's speech with each word's times",
  },
  appOpenWebUi: {
    id: 'api.apps.openWebUi',
    defaultMessage: 'Audio → TTS engine OpenAI, API base {base}/v1 and a key',
  },
  appSillyTavern: {
    id: 'api.apps.sillyTavern',
    defaultMessage: 'OpenAI Compatible TTS, endpoint {base}/v1/audio/speech',
  },
  appOpenAiClients: { id: 'api.apps.openAiClients', defaultMessage: 'base URL {base}/v1, model tts-1' },
  appKokoroName: { id: 'api.apps.kokoro.name', defaultMessage: 'Kokoro-FastAPI clients' },
  appKokoro: {
    id: 'api.apps.kokoro',
    defaultMessage: 'base URL {base}/v1, model kokoro, voices such as af_heart or af_bella+af_sky',
  },
  appBrowserName: { id: 'api.apps.browser.name', defaultMessage: 'KoboldAI Lite, browser extensions' },
  appBrowser: {
    id: 'api.apps.browser',
    defaultMessage: "name the page's origin in Settings → Allowed origins",
  },
  appCloudName: { id: 'api.apps.cloud.name', defaultMessage: "The cloud service's clients" },
  appCloud: {
    id: 'api.apps.cloud',
    defaultMessage: 'base URL {base}; their voice codes through Settings → Voice codes of other services',
  },
});

const OPENAI_ROUTES = [
  ['POST /v1/audio/speech', m.routeSpeech],
  ['GET /v1/models', m.routeModels],
  ['GET /v1/audio/voices', m.routeVoices],
  ['POST /dev/captioned_speech', m.routeCaptioned],
] as const;

/**
 * Apps tested with their own requests (docs/API.md: "Apps that work with it"), and where to point
 * them (`{base}` in the message). An app's own name is a plain string; a description of apps, a message.
 */
const APPS: readonly (readonly [app: string | MessageDescriptor, how: MessageDescriptor])[] = [
  ['Open WebUI', m.appOpenWebUi],
  ['SillyTavern', m.appSillyTavern],
  ['LibreChat, AnythingLLM, Home Assistant (openai_tts)', m.appOpenAiClients],
  [m.appKokoroName, m.appKokoro],
  [m.appBrowserName, m.appBrowser],
  [m.appCloudName, m.appCloud],
];

const LEDGER_KIND_MESSAGES = defineMessages<LedgerKind>({
  grant: { id: 'api.ledger.kind.grant', defaultMessage: 'grant' },
  charge: { id: 'api.ledger.kind.charge', defaultMessage: 'charge' },
  refund: { id: 'api.ledger.kind.refund', defaultMessage: 'refund' },
  transfer: { id: 'api.ledger.kind.transfer', defaultMessage: 'moved from a revoked studio key' },
});

/** A ledger entry's kind in the interface's language (an unknown one as the server wrote it). */
function ledgerKind(intl: IntlShape, kind: string): string {
  const message = LEDGER_KIND_MESSAGES[kind as LedgerKind] as MessageDescriptor | undefined;
  return message ? intl.formatMessage(message) : kind;
}

/** A signing secret with its middle hidden. */
function masked(secret: string): string {
  return `${secret.slice(0, 10)}…${secret.slice(-4)}`;
}

/**
 * Base URLs (the cloud API and OpenAI's route), keys with their signing secrets (shown, copied,
 * rotated), the credits of one key or all, and examples in curl, JavaScript and Python
 * (examples.ts: the same text the tests run).
 */
export function ApiView() {
  const intl = useIntl();
  const session = useStudio((s) => s.session);
  const id = useId();
  const keys = useStudio((s) => s.apiKeys);
  const usage = useStudio((s) => s.apiUsage);
  const name = useStudio((s) => s.apiNewKeyName);
  const created = useStudio((s) => s.apiCreatedKey);
  const error = useStudio((s) => s.apiError);
  const creditsKey = useStudio((s) => s.apiCreditsKey);
  const shown = useStudio((s) => s.apiShownSecrets);
  const language = useStudio((s) => s.apiExampleLanguage);
  const reset = useStudio((s) => s.resetApiView);
  const load = useStudio((s) => s.loadApiView);
  const setName = useStudio((s) => s.setApiNewKeyName);
  const create = useStudio((s) => s.createApiKey);
  const dismissCreated = useStudio((s) => s.dismissCreatedKey);
  const rotateSecret = useStudio((s) => s.rotateSigningSecret);
  const toggleSecret = useStudio((s) => s.toggleSigningSecret);
  const revokeKey = useStudio((s) => s.revokeApiKey);
  const setCreditsKey = useStudio((s) => s.setApiCreditsKey);
  const setLanguage = useStudio((s) => s.setApiExampleLanguage);

  // Each visit starts afresh, and leaves nothing behind (a new key's text is shown once).
  useEffect(() => {
    reset();
    return reset;
  }, [reset]);
  // The keys and the credits of the key shown, read again when that key changes.
  useEffect(() => {
    const first = setTimeout(() => void load(), 0);
    return () => clearTimeout(first);
  }, [load, creditsKey]);

  /** The question of the dialog open (rotate or revoke), and what its confirm button does. */
  const [question, setQuestion] = useState<{ request: ConfirmRequest; go(): Promise<void> } | null>(null);
  const rotate = (key: ApiKeyInfo) =>
    setQuestion({
      request: {
        title: intl.formatMessage({
          id: 'api.keys.rotate.title',
          defaultMessage: 'Rotate the signing secret?',
        }),
        message: intl.formatMessage(
          {
            id: 'api.keys.rotate.confirm',
            defaultMessage:
              'Rotate the signing secret of "{name}" ({prefix}…)? Callbacks delivered from now on are signed with the new secret only: update the receiver, then resend what it refused.',
          },
          { name: key.name, prefix: key.prefix },
        ),
        confirmLabel: intl.formatMessage({ id: 'api.keys.rotate.go', defaultMessage: 'Rotate secret' }),
      },
      go: () => rotateSecret(key.id),
    });
  const revoke = (key: ApiKeyInfo) => {
    const values = { name: key.name, prefix: key.prefix, balance: formatCredits(key.balance) };
    // The key the studio signs in with: revoking it signs the studio out, and says so first.
    const studios = key.id === session?.key.id;
    setQuestion({
      request: {
        title: studios
          ? intl.formatMessage({
              id: 'api.keys.revoke.studio.title',
              defaultMessage: "Revoke the studio's key?",
            })
          : intl.formatMessage({ id: 'api.keys.revoke.title', defaultMessage: 'Revoke this key?' }),
        message: !studios
          ? intl.formatMessage(
              {
                id: 'api.keys.revoke.confirm',
                defaultMessage: 'Revoke "{name}" ({prefix}…)? Apps using it stop working at once.',
              },
              values,
            )
          : key.studio
            ? intl.formatMessage(
                {
                  id: 'api.keys.revoke.studio.moves',
                  defaultMessage:
                    '"{name}" ({prefix}…) is the key this studio works with. Revoking it signs the studio out at once, and apps using it stop working. When you sign in again, the studio gets a new key and the {balance} credits left on this one move to it.',
                },
                values,
              )
            : intl.formatMessage(
                {
                  id: 'api.keys.revoke.studio.stays',
                  defaultMessage:
                    '"{name}" ({prefix}…) is the key this studio works with. Revoking it signs the studio out at once, and apps using it stop working. When you sign in again, the studio works with another key; the {balance} credits left on this one stay on it (the studio did not make it).',
                },
                values,
              ),
        confirmLabel: studios
          ? intl.formatMessage({ id: 'api.keys.revoke.studio.go', defaultMessage: 'Revoke and sign out' })
          : intl.formatMessage({ id: 'api.keys.revoke.go', defaultMessage: 'Revoke key' }),
      },
      go: () => revokeKey(key.id),
    });
  };

  const base = session?.base_url ?? studioUrl(document.baseURI);
  const openAiBase = `${base}/v1`;
  const examples = useMemo(() => buildExamples({ baseUrl: base, apiKey: created?.key }), [base, created]);

  return (
    <>
      <div className="page-head">
        <div>
          <h1>
            <FormattedMessage id="api.title" defaultMessage="API" />
          </h1>
          <p>
            <FormattedMessage
              id="api.intro"
              defaultMessage="Other apps use this studio through the same API as the cloud service, or through OpenAI's speech API."
            />
          </p>
        </div>
      </div>
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      <div className="panel">
        <h2 style={{ marginBottom: 8 }}>
          <FormattedMessage id="api.base.title" defaultMessage="Base URL" />
        </h2>
        <div className="copy-row">
          <code>{base}</code>
          <CopyButton
            text={base}
            label={intl.formatMessage({ id: 'api.base.copy', defaultMessage: 'Copy base URL' })}
          />
        </div>
        <p className="hint" style={{ margin: '8px 0 0' }}>
          <FormattedMessage
            id="api.base.docs"
            defaultMessage="Every route, its fields and answers: the <reference>API reference</reference> and its <openapi>OpenAPI 3.1 document</openapi> (both readable without a key)."
            values={{
              reference: (chunks: ReactNode[]) => <DocLink href={`${base}/api-docs`}>{chunks}</DocLink>,
              openapi: (chunks: ReactNode[]) => <DocLink href={`${base}/openapi.json`}>{chunks}</DocLink>,
            }}
          />
        </p>
        <h2 style={{ margin: '16px 0 8px' }}>
          <FormattedMessage id="api.openai.title" defaultMessage="OpenAI-compatible route" />
        </h2>
        <p className="hint">
          <FormattedMessage
            id="api.openai.hint"
            defaultMessage="For the <code>openai</code> packages and apps that take an OpenAI base URL: give them this one and an API key."
            values={{ code: (chunks: ReactNode[]) => <code>{chunks}</code> }}
          />
        </p>
        <div className="copy-row">
          <code>{openAiBase}</code>
          <CopyButton
            text={openAiBase}
            label={intl.formatMessage({ id: 'api.openai.copy', defaultMessage: 'Copy OpenAI base URL' })}
          />
        </div>
        <ul
          className="small"
          aria-label={intl.formatMessage({
            id: 'api.openai.routes',
            defaultMessage: 'OpenAI-compatible routes',
          })}
          style={{ margin: '8px 0 0', paddingLeft: 18 }}
        >
          {OPENAI_ROUTES.map(([route, what]) => (
            <li key={route}>
              <code>{route}</code>: {intl.formatMessage(what)}
            </li>
          ))}
        </ul>
        <h2 style={{ margin: '16px 0 8px' }}>
          <FormattedMessage id="api.apps.title" defaultMessage="Works with" />
        </h2>
        <ul
          className="small"
          aria-label={intl.formatMessage({
            id: 'api.apps.list',
            defaultMessage: 'Apps that work with this server',
          })}
          style={{ margin: 0, paddingLeft: 18 }}
        >
          {APPS.map(([app, how]) => (
            <li key={how.id}>
              <strong>{typeof app === 'string' ? app : intl.formatMessage(app)}</strong>:{' '}
              {intl.formatMessage(how, { base })}
            </li>
          ))}
        </ul>
      </div>

      <div className="panel">
        <div className="panel-head">
          <h2>
            <FormattedMessage id="api.keys.title" defaultMessage="API keys" />
          </h2>
        </div>
        <div className="row" style={{ alignItems: 'end', marginBottom: 12 }}>
          <div className="field" style={{ margin: 0 }}>
            <label htmlFor={`${id}-name`}>
              <FormattedMessage id="api.keys.newName" defaultMessage="New key name" />
            </label>
            <input
              id={`${id}-name`}
              type="text"
              maxLength={100}
              placeholder={intl.formatMessage({
                id: 'api.keys.newName.placeholder',
                defaultMessage: 'e.g. my app',
              })}
              value={name}
              onChange={(e) => setName(e.target.value)}
            />
          </div>
          <button type="button" className="primary" onClick={() => void create()}>
            <FormattedMessage id="api.keys.create" defaultMessage="Create key" />
          </button>
        </div>
        {created && (
          <div className="notice" role="status" style={{ marginBottom: 12 }}>
            <p style={{ margin: '0 0 6px' }}>
              <FormattedMessage
                id="api.keys.created"
                defaultMessage="<b>New key “{name}”.</b> Copy it now: it is shown only once (the examples below use it until you press Done)."
                values={{ name: created.info.name, b: (chunks: ReactNode[]) => <b>{chunks}</b> }}
              />
            </p>
            <div className="copy-row">
              <code
                aria-label={intl.formatMessage({ id: 'api.keys.created.key', defaultMessage: 'New API key' })}
              >
                {created.key}
              </code>
              <CopyButton
                text={created.key}
                label={intl.formatMessage({
                  id: 'api.keys.created.copy',
                  defaultMessage: 'Copy new API key',
                })}
              />
              <button type="button" onClick={dismissCreated}>
                <FormattedMessage id="api.keys.created.done" defaultMessage="Done" />
              </button>
            </div>
          </div>
        )}
        <p className="hint">
          <FormattedMessage
            id="api.keys.signingHint"
            defaultMessage="Each key signs its callbacks (the X-Narration-Signature header) with its own signing secret. Rotating one takes effect at once, with no overlap: every delivery from then on, retries included, is signed with the new secret alone, so a leaked secret stops working. Update the receiver, then resend what it refused (Callbacks page)."
          />
        </p>
        <table
          className="data"
          aria-label={intl.formatMessage({ id: 'api.keys.title', defaultMessage: 'API keys' })}
        >
          <thead>
            <tr>
              <th>
                <FormattedMessage id="api.keys.name" defaultMessage="Name" />
              </th>
              <th>
                <FormattedMessage id="api.keys.key" defaultMessage="Key" />
              </th>
              <th className="num">
                <FormattedMessage id="api.keys.balance" defaultMessage="Balance" />
              </th>
              <th>
                <FormattedMessage id="api.keys.createdAt" defaultMessage="Created" />
              </th>
              <th>
                <FormattedMessage id="api.keys.state" defaultMessage="State" />
              </th>
              <th>
                <FormattedMessage id="api.keys.signingSecret" defaultMessage="Signing secret" />
              </th>
              <th>
                <span className="visually-hidden">
                  <FormattedMessage id="common.actions" defaultMessage="Actions" />
                </span>
              </th>
            </tr>
          </thead>
          <tbody>
            {keys.map((k) => (
              <tr key={k.id}>
                <td>
                  {k.name}
                  {k.id === session?.key.id && (
                    <span className="badge accent" style={{ marginLeft: 6 }}>
                      <FormattedMessage id="api.keys.studio" defaultMessage="studio" />
                    </span>
                  )}
                </td>
                <td>
                  <code>{k.prefix}…</code>
                </td>
                <td className="num">{formatCredits(k.balance)}</td>
                <td className="small">{formatTime(k.created_at)}</td>
                <td>
                  {k.revoked_at ? (
                    <span className="badge bad">
                      <FormattedMessage id="api.keys.revoked" defaultMessage="revoked" />
                    </span>
                  ) : (
                    <span className="badge ok">
                      <FormattedMessage id="api.keys.active" defaultMessage="active" />
                    </span>
                  )}
                </td>
                <td>
                  <div className="copy-row" style={{ flexWrap: 'nowrap' }}>
                    <code
                      className="small"
                      aria-label={intl.formatMessage(
                        { id: 'api.keys.secretOf', defaultMessage: 'Signing secret of {name}' },
                        { name: k.name },
                      )}
                    >
                      {shown.has(k.id) ? k.signing_secret : masked(k.signing_secret)}
                    </code>
                    <button
                      type="button"
                      onClick={() => toggleSecret(k.id)}
                      aria-label={
                        shown.has(k.id)
                          ? intl.formatMessage(
                              {
                                id: 'api.keys.secret.hideOf',
                                defaultMessage: 'Hide the signing secret of {name}',
                              },
                              { name: k.name },
                            )
                          : intl.formatMessage(
                              {
                                id: 'api.keys.secret.showOf',
                                defaultMessage: 'Show the signing secret of {name}',
                              },
                              { name: k.name },
                            )
                      }
                    >
                      {shown.has(k.id)
                        ? intl.formatMessage({ id: 'api.keys.secret.hide', defaultMessage: 'Hide' })
                        : intl.formatMessage({ id: 'api.keys.secret.show', defaultMessage: 'Show' })}
                    </button>
                    <CopyButton
                      text={k.signing_secret}
                      label={intl.formatMessage(
                        { id: 'api.keys.secret.copy', defaultMessage: 'Copy the signing secret of {name}' },
                        { name: k.name },
                      )}
                    />
                    {!k.revoked_at && (
                      <button
                        type="button"
                        onClick={() => rotate(k)}
                        aria-label={intl.formatMessage(
                          {
                            id: 'api.keys.rotate.label',
                            defaultMessage: 'Rotate the signing secret of {name} ({prefix})',
                          },
                          { name: k.name, prefix: k.prefix },
                        )}
                      >
                        <FormattedMessage id="api.keys.rotate" defaultMessage="Rotate" />
                      </button>
                    )}
                  </div>
                </td>
                <td>
                  {!k.revoked_at && (
                    <button
                      type="button"
                      className="danger"
                      onClick={() => revoke(k)}
                      aria-label={intl.formatMessage(
                        { id: 'api.keys.revoke.label', defaultMessage: 'Revoke key {name} ({prefix})' },
                        { name: k.name, prefix: k.prefix },
                      )}
                    >
                      <FormattedMessage id="api.keys.revoke" defaultMessage="Revoke" />
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>

      {usage && (
        <div className="panel">
          <div className="panel-head">
            <h2>
              <FormattedMessage id="api.credits.title" defaultMessage="Credits" />
            </h2>
            <span>
              <FormattedMessage
                id="api.credits.summary"
                defaultMessage="<b>{balance}</b> credits · {queued, number} queued"
                values={{
                  balance: formatCredits(usage.balance),
                  queued: usage.queued,
                  b: (chunks: ReactNode[]) => <b>{chunks}</b>,
                }}
              />
            </span>
          </div>
          <div className="voice-filters">
            <KeySelect value={creditsKey} keys={keys} onChange={setCreditsKey} />
          </div>
          <AddCredits keys={keys} defaultKey={creditsKey === KEY_FILTER_ALL ? session?.key.id : creditsKey} />
          <table
            className="data"
            aria-label={intl.formatMessage({ id: 'api.ledger.title', defaultMessage: 'Ledger' })}
          >
            <thead>
              <tr>
                <th>
                  <FormattedMessage id="api.ledger.time" defaultMessage="Time" />
                </th>
                {creditsKey === KEY_FILTER_ALL && (
                  <th>
                    <FormattedMessage id="api.keys.key" defaultMessage="Key" />
                  </th>
                )}
                <th>
                  <FormattedMessage id="api.ledger.kind" defaultMessage="Kind" />
                </th>
                <th className="num">
                  <FormattedMessage id="api.ledger.amount" defaultMessage="Amount" />
                </th>
                <th className="num">
                  <FormattedMessage id="api.ledger.balanceAfter" defaultMessage="Balance after" />
                </th>
                <th>
                  <FormattedMessage id="api.ledger.request" defaultMessage="Request" />
                </th>
              </tr>
            </thead>
            <tbody>
              {usage.ledger.map((e, i) => (
                <tr key={i}>
                  <td className="small">{formatTime(e.created_at)}</td>
                  {creditsKey === KEY_FILTER_ALL && <td className="small">{keyName(keys, e.key_id)}</td>}
                  <td>{ledgerKind(intl, e.kind)}</td>
                  <td className="num">{formatCredits(e.amount)}</td>
                  <td className="num">{formatCredits(e.balance_after)}</td>
                  <td>
                    <code className="small">{e.request_id ?? '—'}</code>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}

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
      <ConfirmDialog
        request={question?.request ?? null}
        onCancel={() => setQuestion(null)}
        onConfirm={() => {
          const go = question?.go;
          setQuestion(null);
          void go?.();
        }}
      />
    </>
  );
}

/**
 * A link to a page of this server that opens beside the studio: a new tab in a browser, the
 * system browser from the desktop window (which opens no second window).
 */
function DocLink({ href, children }: { href: string; children: ReactNode }) {
  const desktop = getDesktop();
  return (
    <a
      href={href}
      target="_blank"
      rel="noopener noreferrer"
      onClick={
        desktop
          ? (event) => {
              event.preventDefault();
              void desktop.openExternal(href).catch(() => undefined);
            }
          : undefined
      }
    >
      {children}
    </a>
  );
}

/**
 * Adds whole credits to a live key (POST /api/v1/keys/<id>/credits): the key shown in the ledger,
 * else the studio's own. The keys, the ledger and the sidebar's balance follow (api-view-slice.ts).
 */
function AddCredits({ keys, defaultKey }: { keys: readonly ApiKeyInfo[]; defaultKey: string | undefined }) {
  const intl = useIntl();
  const id = useId();
  const live = keys.filter((k) => !k.revoked_at);
  const studioKeyId = useStudio((s) => s.session?.key.id);
  const chosen = useStudio((s) => s.apiCreditsTo);
  const setChosen = useStudio((s) => s.chooseCreditsKey);
  const keyId = chosen ?? (live.some((k) => k.id === defaultKey) ? defaultKey : live[0]?.id);
  const amount = useStudio((s) => s.apiCreditsAmount);
  const editAmount = useStudio((s) => s.editCreditsAmount);
  const busy = useStudio((s) => s.apiCreditsAdding);
  const problem = useStudio((s) => s.apiCreditsError);
  const added = useStudio((s) => s.apiCreditsAdded);
  const addCredits = useStudio((s) => s.addCredits);

  const credits = Number(amount);
  const wrong = creditsProblem(amount);
  const invalid =
    wrong === 'not-whole'
      ? intl.formatMessage({
          id: 'api.credits.add.notWhole',
          defaultMessage: 'Enter a whole number of credits above 0.',
        })
      : wrong === 'too-many'
        ? intl.formatMessage(
            { id: 'api.credits.add.tooMany', defaultMessage: 'At most {max, number} credits at a time.' },
            { max: MAX_CREDITS_ADDED },
          )
        : null;
  const done =
    added &&
    intl.formatMessage(
      {
        id: 'api.credits.add.done',
        defaultMessage:
          'Added {credits, plural, one {# credit} other {# credits}} to {name}: balance {balance, plural, one {# credit} other {# credits}}.',
      },
      { credits: added.credits, name: added.name, balance: added.balance },
    );

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    if (!keyId || invalid || amount.trim() === '') return;
    await addCredits(keyId, credits);
  };

  if (live.length === 0) return null;
  return (
    <form
      className="add-credits"
      onSubmit={(e) => void submit(e)}
      aria-label={intl.formatMessage({ id: 'api.credits.add', defaultMessage: 'Add credits' })}
    >
      <h3>
        <FormattedMessage id="api.credits.add" defaultMessage="Add credits" />
      </h3>
      <div className="add-credits-row">
        <div className="field">
          <label htmlFor={`${id}-key`}>
            <FormattedMessage id="api.credits.add.key" defaultMessage="To key" />
          </label>
          <select id={`${id}-key`} value={keyId} onChange={(e) => setChosen(e.target.value)}>
            {live.map((k) => (
              <option key={k.id} value={k.id}>
                {k.id === studioKeyId
                  ? intl.formatMessage(
                      { id: 'api.credits.add.studioKey', defaultMessage: '{name} ({prefix}…) · studio' },
                      { name: k.name, prefix: k.prefix },
                    )
                  : intl.formatMessage(
                      { id: 'api.credits.add.keyOption', defaultMessage: '{name} ({prefix}…)' },
                      { name: k.name, prefix: k.prefix },
                    )}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor={`${id}-credits`}>
            <FormattedMessage id="api.credits.title" defaultMessage="Credits" />
          </label>
          <input
            id={`${id}-credits`}
            inputMode="numeric"
            value={amount}
            onChange={(e) => editAmount(e.target.value)}
            // eslint-disable-next-line messages/no-words-in-jsx -- a number, no words
            placeholder="1000"
            aria-invalid={invalid ? true : undefined}
            aria-describedby={invalid ? `${id}-invalid` : undefined}
          />
        </div>
        <button type="submit" disabled={busy || !keyId || amount.trim() === '' || invalid !== null}>
          {busy
            ? intl.formatMessage({ id: 'api.credits.add.adding', defaultMessage: 'Adding…' })
            : intl.formatMessage({ id: 'api.credits.add', defaultMessage: 'Add credits' })}
        </button>
      </div>
      {invalid && (
        <p id={`${id}-invalid`} className="error small">
          {invalid}
        </p>
      )}
      {problem && (
        <p className="error small" role="alert">
          {problem}
        </p>
      )}
      {done && (
        <p className="muted small" role="status">
          {done}
        </p>
      )}
    </form>
  );
}
