import { useCallback, useEffect, useId, useMemo, useState } from 'react';
import type { ApiKeyInfo, CreatedKey, Usage } from '../../../../electron/shared/api';
import { KEY_FILTER_ALL } from '../../../../electron/shared/api';
import { CopyButton } from '../../components/CopyButton';
import { keyName, KeySelect } from '../../components/KeySelect';
import { errorMessage, isSignedOut } from '../../lib/api-client';
import { formatCredits, formatTime } from '../../lib/format';
import { getDesktop } from '../../lib/desktop';
import { useClient, useStudio } from '../../stores';
import {
  API_LABELS,
  buildExamples,
  EXAMPLE_LANGUAGES,
  findExample,
  LANGUAGE_LABELS,
  type ExampleApi,
  type ExampleLanguage,
} from './examples';

const EXAMPLE_APIS: readonly ExampleApi[] = ['cloud-poll', 'cloud-direct', 'openai'];
const OPENAI_ROUTES = [
  ['POST /v1/audio/speech', 'speech: the audio itself, streamed as it renders'],
  ['GET /v1/models', "the models (OpenAI's names and ours); no key needed"],
  ['GET /v1/audio/voices', "the voices: OpenAI's names, Kokoro's and every voice code; no key needed"],
  ['POST /dev/captioned_speech', "Kokoro-FastAPI's speech with each word's times"],
] as const;

/** Apps tested with their own requests (docs/API.md: "Apps that work with it"), and where to point them. */
function appsFor(base: string): readonly (readonly [app: string, how: string])[] {
  return [
    ['Open WebUI', `Audio → TTS engine OpenAI, API base ${base}/v1 and a key`],
    ['SillyTavern', `OpenAI Compatible TTS, endpoint ${base}/v1/audio/speech`],
    ['LibreChat, AnythingLLM, Home Assistant (openai_tts)', `base URL ${base}/v1, model tts-1`],
    [
      'Kokoro-FastAPI clients',
      `base URL ${base}/v1, model kokoro, voices such as af_heart or af_bella+af_sky`,
    ],
    ['KoboldAI Lite, browser extensions', "name the page's origin in Settings → Allowed origins"],
    [
      "The cloud service's clients",
      `base URL ${base}; their voice codes through Settings → Voice codes of other services`,
    ],
  ];
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
  const client = useClient();
  const session = useStudio((s) => s.session);
  const markSignedOut = useStudio((s) => s.markSignedOut);
  const refreshSession = useStudio((s) => s.refreshSession);
  const id = useId();
  const [keys, setKeys] = useState<ApiKeyInfo[]>([]);
  const [usage, setUsage] = useState<Usage | null>(null);
  const [name, setName] = useState('');
  const [created, setCreated] = useState<CreatedKey | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [creditsKey, setCreditsKey] = useState<string>(session?.key.id ?? KEY_FILTER_ALL);
  const [shown, setShown] = useState<ReadonlySet<string>>(new Set());
  const [language, setLanguage] = useState<ExampleLanguage>('curl');

  const load = useCallback(async () => {
    try {
      const [k, u] = await Promise.all([client.keys(), client.usage(1, 10, creditsKey)]);
      setKeys(k);
      setUsage(u);
    } catch (e) {
      if (isSignedOut(e)) markSignedOut();
      setError(errorMessage(e));
    }
  }, [client, creditsKey, markSignedOut]);

  useEffect(() => {
    const first = setTimeout(() => void load(), 0);
    return () => clearTimeout(first);
  }, [load]);

  const create = async () => {
    setError(null);
    try {
      setCreated(await client.createKey(name.trim() || undefined));
      setName('');
      await load();
    } catch (e) {
      setError(errorMessage(e));
    }
  };
  const rotate = async (key: ApiKeyInfo) => {
    if (
      !window.confirm(
        `Rotate the signing secret of "${key.name}" (${key.prefix}…)? Callbacks delivered from now on are signed with the new secret only: update the receiver, then resend what it refused.`,
      )
    )
      return;
    setError(null);
    try {
      await client.rotateSigningSecret(key.id);
      setShown((s) => new Set(s).add(key.id));
      await load();
    } catch (e) {
      setError(errorMessage(e));
    }
  };
  const toggleSecret = (keyId: string) =>
    setShown((s) => {
      const next = new Set(s);
      if (!next.delete(keyId)) next.add(keyId);
      return next;
    });
  const revoke = async (key: ApiKeyInfo) => {
    if (!window.confirm(`Revoke "${key.name}" (${key.prefix}…)? Apps using it stop working at once.`)) return;
    setError(null);
    try {
      await client.revokeKey(key.id);
      await load();
      await refreshSession();
    } catch (e) {
      setError(errorMessage(e));
    }
  };

  const base = session?.base_url ?? window.location.origin;
  const examples = useMemo(() => buildExamples({ baseUrl: base, apiKey: created?.key }), [base, created]);

  return (
    <>
      <div className="page-head">
        <div>
          <h1>API</h1>
          <p>
            Other apps use this studio through the same API as the cloud service, or through OpenAI's speech
            API.
          </p>
        </div>
      </div>
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      <div className="panel">
        <h2 style={{ marginBottom: 8 }}>Base URL</h2>
        <div className="copy-row">
          <code>{base}</code>
          <CopyButton text={base} label="Copy base URL" />
        </div>
        <p className="hint" style={{ margin: '8px 0 0' }}>
          Every route, its fields and answers: the <DocLink href={`${base}/api-docs`}>API reference</DocLink>{' '}
          and its <DocLink href={`${base}/openapi.json`}>OpenAPI 3.1 document</DocLink> (both readable without
          a key).
        </p>
        <h2 style={{ margin: '16px 0 8px' }}>OpenAI-compatible route</h2>
        <p className="hint">
          For the <code>openai</code> packages and apps that take an OpenAI base URL: give them this one and
          an API key.
        </p>
        <div className="copy-row">
          <code>{`${base}/v1`}</code>
          <CopyButton text={`${base}/v1`} label="Copy OpenAI base URL" />
        </div>
        <ul
          className="small"
          aria-label="OpenAI-compatible routes"
          style={{ margin: '8px 0 0', paddingLeft: 18 }}
        >
          {OPENAI_ROUTES.map(([route, what]) => (
            <li key={route}>
              <code>{route}</code>: {what}
            </li>
          ))}
        </ul>
        <h2 style={{ margin: '16px 0 8px' }}>Works with</h2>
        <ul
          className="small"
          aria-label="Apps that work with this server"
          style={{ margin: 0, paddingLeft: 18 }}
        >
          {appsFor(base).map(([app, how]) => (
            <li key={app}>
              <strong>{app}</strong>: {how}
            </li>
          ))}
        </ul>
      </div>

      <div className="panel">
        <div className="panel-head">
          <h2>API keys</h2>
        </div>
        <div className="row" style={{ alignItems: 'end', marginBottom: 12 }}>
          <div className="field" style={{ margin: 0 }}>
            <label htmlFor={`${id}-name`}>New key name</label>
            <input
              id={`${id}-name`}
              type="text"
              maxLength={100}
              placeholder="e.g. my app"
              value={name}
              onChange={(e) => setName(e.target.value)}
            />
          </div>
          <button type="button" className="primary" onClick={() => void create()}>
            Create key
          </button>
        </div>
        {created && (
          <div className="notice" role="status" style={{ marginBottom: 12 }}>
            <p style={{ margin: '0 0 6px' }}>
              <b>New key “{created.info.name}”.</b> Copy it now: it is shown only once (the examples below use
              it until you press Done).
            </p>
            <div className="copy-row">
              <code aria-label="New API key">{created.key}</code>
              <CopyButton text={created.key} label="Copy new API key" />
              <button type="button" onClick={() => setCreated(null)}>
                Done
              </button>
            </div>
          </div>
        )}
        <p className="hint">
          Each key signs its callbacks (the X-Narration-Signature header) with its own signing secret.
          Rotating one takes effect at once, with no overlap: every delivery from then on, retries included,
          is signed with the new secret alone, so a leaked secret stops working. Update the receiver, then
          resend what it refused (Callbacks page).
        </p>
        <table className="data" aria-label="API keys">
          <thead>
            <tr>
              <th>Name</th>
              <th>Key</th>
              <th className="num">Balance</th>
              <th>Created</th>
              <th>State</th>
              <th>Signing secret</th>
              <th>
                <span className="visually-hidden">Actions</span>
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
                      studio
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
                    <span className="badge bad">revoked</span>
                  ) : (
                    <span className="badge ok">active</span>
                  )}
                </td>
                <td>
                  <div className="copy-row" style={{ flexWrap: 'nowrap' }}>
                    <code className="small" aria-label={`Signing secret of ${k.name}`}>
                      {shown.has(k.id) ? k.signing_secret : masked(k.signing_secret)}
                    </code>
                    <button
                      type="button"
                      onClick={() => toggleSecret(k.id)}
                      aria-label={`${shown.has(k.id) ? 'Hide' : 'Show'} the signing secret of ${k.name}`}
                    >
                      {shown.has(k.id) ? 'Hide' : 'Show'}
                    </button>
                    <CopyButton text={k.signing_secret} label={`Copy the signing secret of ${k.name}`} />
                    {!k.revoked_at && (
                      <button
                        type="button"
                        onClick={() => void rotate(k)}
                        aria-label={`Rotate the signing secret of ${k.name} (${k.prefix})`}
                      >
                        Rotate
                      </button>
                    )}
                  </div>
                </td>
                <td>
                  {!k.revoked_at && (
                    <button
                      type="button"
                      className="danger"
                      onClick={() => void revoke(k)}
                      aria-label={`Revoke key ${k.name} (${k.prefix})`}
                    >
                      Revoke
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
            <h2>Credits</h2>
            <span>
              <b>{formatCredits(usage.balance)}</b> credits · {usage.queued} queued
            </span>
          </div>
          <div className="voice-filters">
            <KeySelect value={creditsKey} keys={keys} onChange={setCreditsKey} />
          </div>
          <AddCredits
            keys={keys}
            defaultKey={creditsKey === KEY_FILTER_ALL ? session?.key.id : creditsKey}
            onAdded={async () => {
              await load();
              await refreshSession();
            }}
          />
          <table className="data" aria-label="Ledger">
            <thead>
              <tr>
                <th>Time</th>
                {creditsKey === KEY_FILTER_ALL && <th>Key</th>}
                <th>Kind</th>
                <th className="num">Amount</th>
                <th className="num">Balance after</th>
                <th>Request</th>
              </tr>
            </thead>
            <tbody>
              {usage.ledger.map((e, i) => (
                <tr key={i}>
                  <td className="small">{formatTime(e.created_at)}</td>
                  {creditsKey === KEY_FILTER_ALL && <td className="small">{keyName(keys, e.key_id)}</td>}
                  <td>{e.kind}</td>
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
        <h2 style={{ marginBottom: 8 }}>Examples</h2>
        <p className="hint">
          {created
            ? `With the key you just created (“${created.info.name}”).`
            : 'Replace <your API key> with a key (create one above: its text is shown once).'}{' '}
          The curl lines name <code>&lt;request_id&gt;</code> and <code>&lt;audio_link&gt;</code>: take them
          from the previous answer.
        </p>
        <div className="row" role="group" aria-label="Example language" style={{ marginBottom: 12 }}>
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
              <p className="hint">{API_LABELS[api]}</p>
              <div className="copy-row" style={{ alignItems: 'start' }}>
                <pre
                  className="payload"
                  style={{ flex: 1 }}
                  tabIndex={0}
                  aria-label={`${LANGUAGE_LABELS[language]} example: ${API_LABELS[api]}`}
                >
                  {example.code}
                </pre>
                <CopyButton
                  text={example.code}
                  label={`Copy the ${LANGUAGE_LABELS[language]} example: ${API_LABELS[api]}`}
                />
              </div>
            </div>
          );
        })}
        {language.endsWith('openai') && (
          <p className="hint">
            The openai packages speak the OpenAI-compatible route only; for the cloud API use fetch or
            requests.
          </p>
        )}
      </div>
    </>
  );
}

/**
 * A link to a page of this server that opens beside the studio: a new tab in a browser, the
 * system browser from the desktop window (which opens no second window).
 */
function DocLink({ href, children }: { href: string; children: string }) {
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

/** The most credits one addition may give (the server's limit, jobs/keys.ts). */
const MAX_CREDITS_ADDED = 1_000_000_000;

/**
 * Adds whole credits to a live key (POST /api/v1/keys/<id>/credits): the key shown in the ledger,
 * else the studio's own. The sidebar's balance follows (`onAdded` re-reads the session).
 */
function AddCredits({
  keys,
  defaultKey,
  onAdded,
}: {
  keys: readonly ApiKeyInfo[];
  defaultKey: string | undefined;
  onAdded(): Promise<void>;
}) {
  const client = useClient();
  const id = useId();
  const live = keys.filter((k) => !k.revoked_at);
  const studioKeyId = useStudio((s) => s.session?.key.id);
  const [chosen, setChosen] = useState<string | undefined>(undefined);
  const keyId = chosen ?? (live.some((k) => k.id === defaultKey) ? defaultKey : live[0]?.id);
  const [amount, setAmount] = useState('');
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);

  const credits = Number(amount);
  const invalid =
    amount.trim() === ''
      ? null
      : !/^\d+$/.test(amount.trim()) || credits < 1
        ? 'Enter a whole number of credits above 0.'
        : credits > MAX_CREDITS_ADDED
          ? `At most ${MAX_CREDITS_ADDED.toLocaleString()} credits at a time.`
          : null;

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    if (!keyId || invalid || amount.trim() === '') return;
    setBusy(true);
    setProblem(null);
    setDone(null);
    try {
      const key = await client.addCredits(keyId, credits);
      setDone(
        `Added ${credits.toLocaleString()} credits to ${key.name}: balance ${key.balance.toLocaleString()} credits.`,
      );
      setAmount('');
      await onAdded();
    } catch (e) {
      setProblem(errorMessage(e));
    } finally {
      setBusy(false);
    }
  };

  if (live.length === 0) return null;
  return (
    <form className="add-credits" onSubmit={(e) => void submit(e)} aria-label="Add credits">
      <h3>Add credits</h3>
      <div className="add-credits-row">
        <div className="field">
          <label htmlFor={`${id}-key`}>To key</label>
          <select id={`${id}-key`} value={keyId} onChange={(e) => setChosen(e.target.value)}>
            {live.map((k) => (
              <option key={k.id} value={k.id}>
                {k.name} ({k.prefix}…){k.id === studioKeyId ? ' · studio' : ''}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor={`${id}-credits`}>Credits</label>
          <input
            id={`${id}-credits`}
            inputMode="numeric"
            value={amount}
            onChange={(e) => {
              setAmount(e.target.value);
              setDone(null);
            }}
            placeholder="1000"
            aria-invalid={invalid ? true : undefined}
            aria-describedby={invalid ? `${id}-invalid` : undefined}
          />
        </div>
        <button type="submit" disabled={busy || !keyId || amount.trim() === '' || invalid !== null}>
          {busy ? 'Adding…' : 'Add credits'}
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
