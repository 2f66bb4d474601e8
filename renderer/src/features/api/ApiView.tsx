import { useCallback, useEffect, useId, useState } from 'react';
import type { ApiKeyInfo, CreatedKey, Usage } from '../../../../electron/shared/api';
import { CopyButton } from '../../components/CopyButton';
import { errorMessage, isSignedOut } from '../../lib/api-client';
import { formatTime } from '../../lib/format';
import { getDesktop } from '../../lib/desktop';
import { useClient, useStudio } from '../../stores';

/** Base URL, keys, signing secret, balance and ledger, and curl examples. */
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

  const load = useCallback(async () => {
    try {
      const [k, u] = await Promise.all([client.keys(), client.usage(1, 10)]);
      setKeys(k);
      setUsage(u);
    } catch (e) {
      if (isSignedOut(e)) markSignedOut();
      setError(errorMessage(e));
    }
  }, [client, markSignedOut]);

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
  const keyText = created?.key ?? '<your API key>';
  const submitCurl = `curl -s -X POST ${base}/api/v1/tts \\
  -H "Authorization: Bearer ${keyText}" \\
  -H "Content-Type: application/json" \\
  -d '{"input_text":"Hello from Narration Studio.","voice_code":"en_female_emily_us","audio_type":"mp3","generate_srt":true,"callback_url":"http://127.0.0.1:9000/hook"}'`;
  const resultCurl = `curl -s ${base}/api/v1/tts/<request_id>/callback-result \\
  -H "Authorization: Bearer ${keyText}"`;

  return (
    <>
      <div className="page-head">
        <div>
          <h1>API</h1>
          <p>Other apps use this studio through the same API as the cloud service.</p>
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
        {session && (
          <>
            <h2 style={{ margin: '16px 0 8px' }}>Signing secret of the studio key</h2>
            <p className="hint">
              Verifies the X-Narration-Signature header of callbacks for requests made with “
              {session.key.name}”.
            </p>
            <div className="copy-row">
              <code>{session.key.signing_secret}</code>
              <CopyButton text={session.key.signing_secret} label="Copy signing secret" />
            </div>
          </>
        )}
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
              <b>New key “{created.info.name}”.</b> Copy it now: it is shown only once.
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
        <table className="data" aria-label="API keys">
          <thead>
            <tr>
              <th>Name</th>
              <th>Key</th>
              <th className="num">Balance</th>
              <th>Created</th>
              <th>State</th>
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
                <td className="num">{k.balance.toLocaleString('en-US')}</td>
                <td className="small">{formatTime(k.created_at)}</td>
                <td>
                  {k.revoked_at ? (
                    <span className="badge bad">revoked</span>
                  ) : (
                    <span className="badge ok">active</span>
                  )}
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
            <h2>Credits of the studio key</h2>
            <span>
              <b>{usage.balance.toLocaleString('en-US')}</b> credits · {usage.queued} queued
            </span>
          </div>
          <table className="data" aria-label="Ledger">
            <thead>
              <tr>
                <th>Time</th>
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
                  <td>{e.kind}</td>
                  <td className="num">{e.amount.toLocaleString('en-US')}</td>
                  <td className="num">{e.balance_after.toLocaleString('en-US')}</td>
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
        <p className="hint">Submit a request{created ? ' (with the key you just created)' : ''}:</p>
        <div className="copy-row" style={{ alignItems: 'start' }}>
          <pre className="payload" style={{ flex: 1 }}>
            {submitCurl}
          </pre>
          <CopyButton text={submitCurl} label="Copy submit example" />
        </div>
        <p className="hint" style={{ marginTop: 12 }}>
          Read the stored callback result:
        </p>
        <div className="copy-row" style={{ alignItems: 'start' }}>
          <pre className="payload" style={{ flex: 1 }}>
            {resultCurl}
          </pre>
          <CopyButton text={resultCurl} label="Copy callback-result example" />
        </div>
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
