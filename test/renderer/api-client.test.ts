import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError, createApiClient, isSignedOut, type ApiClient } from '../../renderer/src/lib/api-client';
import { readSettings } from '../../electron/core/platform/settings-store';
import { startSignedIn, type SignedIn } from './helpers';

describe('api-client against the real server', () => {
  let s: SignedIn;
  let bearer: ApiClient;
  let session: ApiClient;

  beforeAll(async () => {
    s = await startSignedIn();
    bearer = createApiClient({ baseUrl: s.t.core.url, apiKey: s.t.key });
    session = s.client();
  });
  afterAll(async () => s?.t.close());

  it('lists the 26 voices', async () => {
    const voices = await bearer.voices();
    expect(voices).toHaveLength(26);
    expect(voices.find((v) => v.voice_code === 'en_female_jessica_au')?.accent_approximated).toBe(true);
  });

  it('submits, follows and lists a request; the SRT is readable through fetchText', async () => {
    const record = await bearer.submit({
      input_text: 'One line. Two lines.',
      voice_code: 'en_female_nova_default',
      generate_srt: true,
    });
    expect(record.status).toBe('new');
    let detail = await bearer.request(record.request_id);
    for (let i = 0; i < 1200 && detail.status !== 'SUCCESS' && detail.status !== 'FAILURE'; i++) {
      await new Promise((r) => setTimeout(r, 25));
      detail = await bearer.request(record.request_id);
    }
    expect(detail.status).toBe('SUCCESS');
    const srt = await bearer.fetchText(detail.srt_link!);
    expect(srt).toContain('-->');
    const list = await bearer.listRequests({ page: 1, page_size: 5, voice_code: 'en_female_nova_default' });
    expect(list.items.map((r) => r.request_id)).toContain(record.request_id);
    const usage = await bearer.usage();
    expect(usage.ledger[0]?.kind).toBe('charge');
  });

  it("streams server-sent events of the key's requests until aborted", async () => {
    const controller = new AbortController();
    const events: { request_id: string; status: string }[] = [];
    let opened!: () => void;
    const open = new Promise<void>((resolve) => (opened = resolve));
    const done = bearer.streamEvents({ onOpen: opened, onRequest: (e) => events.push(e) }, controller.signal);
    await open;
    const record = await bearer.submit({
      input_text: 'Streaming events.',
      voice_code: 'en_male_onyx_default',
    });
    for (
      let i = 0;
      i < 3000 && !events.some((e) => e.request_id === record.request_id && e.status === 'SUCCESS');
      i++
    ) {
      await new Promise((r) => setTimeout(r, 10));
    }
    expect(events.filter((e) => e.request_id === record.request_id).at(-1)?.status).toBe('SUCCESS');
    controller.abort();
    await expect(done).resolves.toBeUndefined();
  });

  it('turns the API error body into an ApiError with code and sentence', async () => {
    const error = await bearer.submit({ input_text: 'Hi', voice_code: 'xx_nobody' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).code).toBe('UNKNOWN_VOICE');
    expect((error as ApiError).status).toBe(400);
    expect((error as ApiError).message).toMatch(/xx_nobody/);
  });

  it('reports 401 as signed out, and an unreachable server as NETWORK', async () => {
    const anonymous = createApiClient({ baseUrl: s.t.core.url });
    const error = await anonymous.session().catch((e: unknown) => e);
    expect(isSignedOut(error)).toBe(true);
    const gone = createApiClient({ baseUrl: 'http://127.0.0.1:9' });
    const network = await gone.voices().catch((e: unknown) => e);
    expect((network as ApiError).code).toBe('NETWORK');
  });

  it('tells onSignedOut listeners of each 401, but not of a sign-out, another error or after unsubscribing', async () => {
    const anonymous = createApiClient({ baseUrl: s.t.core.url });
    let reports = 0;
    const stop = anonymous.onSignedOut(() => reports++);
    expect(isSignedOut(await anonymous.session().catch((e: unknown) => e))).toBe(true);
    expect(reports).toBe(1);
    await anonymous.usage().catch(() => undefined);
    expect(reports).toBe(2);
    await anonymous.signOut().catch(() => undefined);
    expect(reports).toBe(2);
    const invalid = await bearer.request('no-such-request').catch((e: unknown) => e);
    expect(invalid).toBeInstanceOf(ApiError);
    bearer.onSignedOut(() => reports++);
    await bearer.request('no-such-request').catch(() => undefined);
    expect(reports).toBe(2);
    stop();
    await anonymous.session().catch(() => undefined);
    expect(reports).toBe(2);
  });

  it('with a session: reads the session, creates a key shown once and revokes it', async () => {
    const info = await session.session();
    expect(info.base_url).toBe(s.t.core.url);
    const created = await session.createKey('from test');
    expect(created.key).toMatch(/^nsk_/);
    const keys = await session.keys();
    expect(keys.find((k) => k.id === created.info.id)?.name).toBe('from test');
    expect(JSON.stringify(keys)).not.toContain(created.key);
    const revoked = await session.revokeKey(created.info.id);
    expect(revoked.revoked_at).not.toBeNull();
    const withRevoked = createApiClient({ baseUrl: s.t.core.url, apiKey: created.key });
    expect(isSignedOut(await withRevoked.usage().catch((e: unknown) => e))).toBe(true);
  });

  it('auditions a voice as a WAV blob', async () => {
    const blob = await session.audition('fr_female_camille_default', { speed_rate: 1.5 });
    const head = new TextDecoder().decode(new Uint8Array(await blob.arrayBuffer()).subarray(0, 4));
    expect(head).toBe('RIFF');
  });

  it('gives the address of a streamed audition for an audio element, which the session opens', async () => {
    const url = session.auditionUrl('fr_female_camille_default', { speed_rate: 1.5, volume: 90 });
    expect(url).toBe(
      `${s.t.core.url}/api/v1/voices/fr_female_camille_default/audition?speed_rate=1.5&volume=90&studio_session=${s.value}`,
    );
    // An audio element sends the cookie; the session's value rides in its address.
    const played = await fetch(url, { headers: { cookie: s.cookie } });
    expect(played.status).toBe(200);
    expect(played.headers.get('content-type')).toBe('audio/wav');
    expect(new TextDecoder().decode((await played.bytes()).subarray(0, 4))).toBe('RIFF');
    const signedOut = await fetch(url);
    expect(signedOut.status).toBe(401);
    const cookieAlone = await fetch(url.replace(/&studio_session=.*$/, ''), {
      headers: { cookie: s.cookie },
    });
    expect(cookieAlone.status).toBe(401);
  });
  it('with a session: reads and saves the server settings for the next start; bearer keys may not', async () => {
    const before = await session.serverSettings();
    expect(before.running_port).toBe(s.t.core.port);
    expect(before.settings_file).toBe(join(s.t.dir, 'config', 'settings.json'));
    const saved = await session.updateServerSettings({ port: 9555 });
    expect(saved).toMatchObject({ port: 9555, running_port: s.t.core.port, restart_required: true });
    expect(readSettings(join(s.t.dir, 'config')).port).toBe(9555);
    const invalid = await session.updateServerSettings({ data_dir: 'not/absolute' }).catch((e: unknown) => e);
    expect(invalid).toBeInstanceOf(ApiError);
    expect(invalid).toMatchObject({ code: 'INVALID_FIELD', status: 400 });
    expect((invalid as ApiError).message).toMatch(/absolute path/);
    const denied = await bearer.updateServerSettings({ port: 9556 }).catch((e: unknown) => e);
    expect(isSignedOut(denied)).toBe(true);
    expect((await session.serverSettings()).port).toBe(9555);
  });
});
