/**
 * A book project whose characters speak with custom voices, on the real engine and a real
 * database: the segment's speaker speaks as the custom voice (its voice_code, its prosody times
 * the character's), priced as its voice_code; a quotation by a custom-voiced character is
 * spoken by its voice_code with the composed prosody; an unknown code is refused.
 */

import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createApiKey } from '../../../electron/core/jobs/keys';
import { systemClock } from '../../../electron/core/platform/clock';
import type { ProjectRenders } from '../../../electron/core/projects/project-renders';
import { segmentInput } from '../../../electron/core/projects/segment-render';
import { checkCustomVoiceInput, fromCustomVoiceRow, toCustomVoiceRow } from '../../../electron/core/voices';
import { CATALOGUE } from '../../../electron/core/voices';
import { startEngine, type EngineFixture } from '../../fixtures/engine';
import { openTestStore, type TestStore } from '../../fixtures/test-store';
import { createTestProject, startTestRenders, type TestProject } from '../../fixtures/test-project';

let fixture: EngineFixture;
let db: TestStore;
let renders: ProjectRenders;
let project: TestProject;

beforeAll(async () => {
  fixture = await startEngine(2);
});
afterAll(() => fixture?.close());

beforeEach(async () => {
  db = await openTestStore();
  project = await createTestProject(db.store);
  renders = await startTestRenders({ engine: fixture.engine, store: db.store, dir: db.dir });
});
afterEach(async () => {
  await renders.close();
  await db.close();
});

async function addCustomVoice(
  code: string,
  voiceCode: string,
  prosody: Record<string, number>,
  ownerKeyId: string | null = null,
) {
  const voice = await checkCustomVoiceInput(
    { code, name: `Custom ${code}`, base: { kind: 'code', voice_code: voiceCode }, prosody },
    { installed: async () => [], catalogue: CATALOGUE },
    new Date().toISOString(),
  );
  expect(await db.store.customVoices.insert(toCustomVoiceRow({ ...voice, owner_key_id: ownerKeyId }))).toBe(
    true,
  );
  return voice;
}

describe('custom voices in projects', () => {
  it('renders a segment with a custom voice: slower as its prosody says, priced as its voice_code', async () => {
    const narrator = project.characters[0]!;
    await addCustomVoice('slow-narrator', narrator.voice_code, { speed: 0.6 });
    const segment = project.segments[0]!;
    const balance = async () => (await db.store.keys.findById(project.keyId))!.balance_milli;

    let before = await balance();
    const plain = await renders.regenerate(project.projectId, segment.id, project.keyId);
    const plainCost = before - (await balance());
    before = await balance();
    const custom = await renders.regenerate(project.projectId, segment.id, project.keyId, {
      voice_code: 'slow-narrator',
    });
    const customCost = before - (await balance());
    expect(plain.state).toBe('done');
    expect(custom.state).toBe('done');
    expect(custom.audio_key).not.toBe(plain.audio_key);
    const character = (await db.store.projects.characters(project.projectId)).find(
      (c) => c.id === custom.speaker,
    )!;
    expect(character).toMatchObject({
      voice_code: 'slow-narrator',
      name: `${narrator.name} (Custom slow-narrator)`,
    });
    const ratio = custom.duration_ms! / plain.duration_ms!;
    console.log(
      `project segment: ${plain.duration_ms} ms → ${custom.duration_ms} ms (×${ratio.toFixed(2)}, speed 0.6)`,
    );
    expect(ratio).toBeGreaterThan(1.35);
    expect(customCost).toBe(plainCost);

    await expect(
      renders.regenerate(project.projectId, segment.id, project.keyId, { voice_code: 'nobody-here' }),
    ).rejects.toMatchObject({ code: 'UNKNOWN_VOICE' });
  }, 120_000);

  it("never speaks with another key's voice: named in a regeneration, or made under a code its cast names", async () => {
    const other = (await createApiKey(db.store, systemClock)).row.id;
    const narrator = project.characters[0]!;
    const segment = project.segments[0]!;
    await addCustomVoice('other-keys-voice', narrator.voice_code, { speed: 0.6 }, other);
    await expect(
      renders.regenerate(project.projectId, segment.id, project.keyId, { voice_code: 'other-keys-voice' }),
    ).rejects.toMatchObject({ code: 'UNKNOWN_VOICE' });
    // The cast named the project key's own voice "swapped", which it deleted since; another key
    // then made a voice under that code: the project does not speak with it.
    await db.store.projects.putCharacters([{ ...narrator, voice_code: 'swapped' }]);
    await addCustomVoice('swapped', narrator.voice_code, { speed: 0.6 }, other);
    await expect(renders.regenerate(project.projectId, segment.id, project.keyId)).rejects.toMatchObject({
      code: 'UNKNOWN_VOICE',
    });
    // The studio's voices (owner null) are every key's to speak with.
    await db.store.customVoices.delete('swapped');
    await addCustomVoice('swapped', narrator.voice_code, { speed: 0.6 });
    expect((await renders.regenerate(project.projectId, segment.id, project.keyId)).state).toBe('done');
  }, 120_000);

  it('speaks a quotation by a custom-voiced character as its voice_code with the composed prosody', async () => {
    const voice = await addCustomVoice('quick-anna', 'en_female_emily_us', { speed: 1.5, pitch: 1.2 });
    const cast = new Map(
      project.characters.map((c) => [
        c.id,
        c.voice_code === 'en_female_emily_us' ? { ...c, voice_code: 'quick-anna' } : c,
      ]),
    );
    const input = segmentInput({
      segment: project.segments[1]!,
      cast,
      narrator: project.characters[0]!,
      model_id: 'std-v1.6',
      customVoices: new Map([[voice.code, fromCustomVoiceRow(toCustomVoiceRow(voice))]]),
    });
    expect(input.ssml).toBe(true);
    // The fixture's Anna: 1.1 × the narrator's rate and pitch; times the voice's 1.5 and 1.2.
    expect(input.text).toMatch(
      /<voice name="en_female_emily_us"><prosody rate="165%" pitch="132%" volume="100%">/,
    );
  });
});
