import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStudioStore } from '../../renderer/src/stores';
import { memoryStorage, startSignedIn, type SignedIn } from './helpers';

describe("server settings slice (the Settings view's server form) against the real server", () => {
  let s: SignedIn;
  beforeAll(async () => {
    s = await startSignedIn();
  });
  afterAll(async () => s?.t.close());

  it('reads the settings file into the form, checks it, and saves it for the next start', async () => {
    const store = createStudioStore({ client: s.client(), storage: memoryStorage() });
    const state = () => store.getState();
    expect(state().serverSettings).toBeNull();
    await state().loadServerSettings();
    const read = state().serverSettings!;
    expect(read.running_port).toBe(s.t.core.port);
    expect(state().serverForm).toMatchObject({
      port: String(read.port),
      origins: read.allowed_origins.join('\n'),
      unknownVoices: read.unknown_voices,
    });

    // The browser's check: the field's problem, nothing sent; typing in the field clears it.
    state().editServerForm({ port: '70000' });
    await state().saveServerSettings({ aliases: {} });
    expect(state().serverProblems.map((p) => p.field)).toEqual(['port']);
    expect(state().serverSettingsSaved).toBeNull();
    state().editServerForm({ port: '9555' });
    expect(state().serverProblems).toEqual([]);

    // The alias table's problem (checked by the view) stops the save until the rows change.
    await state().saveServerSettings({ problem: 'Row 1: no code' });
    expect(state().serverAliasProblem).toBe('Row 1: no code');
    expect(state().serverSettingsSaved).toBeNull();
    state().editServerForm({ aliasRows: [] });
    expect(state().serverAliasProblem).toBeUndefined();

    await state().saveServerSettings({ aliases: {} });
    expect(state().serverSettingsSaving).toBe(false);
    expect(state().serverSettingsSaved).toMatchObject({ port: 9555, restart_required: true });
    expect(state().serverSettings).toBe(state().serverSettingsSaved);
    state().editServerForm({ dataDir: '' });
    expect(state().serverSettingsSaved).toBeNull();

    // Opening the panel again reads the file afresh.
    state().editServerForm({ port: '1' });
    await state().loadServerSettings();
    expect(state().serverForm.port).toBe('9555');
  });
});
