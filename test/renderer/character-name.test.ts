/**
 * Issue 38, point 5: the studio words the narrator by its role (the record's `named` flag), not by
 * matching the English default name; a name a person gave the narrator is shown as typed. The
 * records come from the real project service on a real store.
 */

import { join } from 'node:path';
import { createIntl } from 'react-intl';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { systemClock } from '../../electron/core/platform/clock';
import { createApiKey } from '../../electron/core/jobs/keys';
import { createProjectService, type ProjectService } from '../../electron/core/projects/project-service';
import type { ProjectDetail } from '../../electron/shared/projects';
import { characterName } from '../../renderer/src/features/projects/project-format';
import en from '../../renderer/src/i18n/messages/en.json';
import vi from '../../renderer/src/i18n/messages/vi.json';
import { BOOK } from '../fixtures/project-books';
import { openTestStore, type TestStore } from '../fixtures/test-store';

const vietnamese = createIntl({ locale: 'vi', messages: vi });
const english = createIntl({ locale: 'en', messages: en });

describe('characterName', () => {
  let t: TestStore;
  let service: ProjectService;
  let keyId: string;
  beforeEach(async () => {
    t = await openTestStore();
    keyId = (await createApiKey(t.store, systemClock)).row.id;
    service = createProjectService({ store: t.store, filesDir: join(t.dir, 'files') });
  });
  afterEach(async () => {
    await t.close();
  });
  const narratorOf = (detail: ProjectDetail) => detail.characters.find((c) => c.narrator)!;

  it('words the default narrator in the interface language and keeps the names people gave', async () => {
    const detail = await service.createFromManuscript(keyId, BOOK, { voice_code: 'vi_male_minhtriet_mb' });
    const narrator = narratorOf(detail);
    expect(characterName(narrator, vietnamese)).toBe('Người dẫn chuyện');
    expect(characterName(narrator, english)).toBe('Narrator');
    const lan = detail.characters.find((c) => c.name === 'Lan')!;
    expect(characterName(lan, vietnamese)).toBe('Lan');

    // The writer's own name for the narrator, in either language, is theirs.
    const renamed = await service.updateCharacter(keyId, detail.project.id, narrator.id, {
      name: 'Người kể',
    });
    expect(characterName(renamed, english)).toBe('Người kể');
    expect(characterName(renamed, vietnamese)).toBe('Người kể');
    // Typed as "Narrator" by a person: kept as typed, not translated.
    const typed = await service.updateCharacter(keyId, detail.project.id, narrator.id, {
      name: 'Narrator',
    });
    expect(characterName(typed, vietnamese)).toBe('Narrator');
  });

  it('goes by the flag, not the words: the role is worded whatever the default name says', () => {
    const role = { name: 'anything', narrator: true, named: false };
    expect(characterName(role, vietnamese)).toBe('Người dẫn chuyện');
    expect(characterName({ ...role, named: true }, vietnamese)).toBe('anything');
  });
});
