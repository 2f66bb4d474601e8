/**
 * Migration 15 (custom voices get owners) on the run's backend: a database as version 14 left it,
 * with a custom voice, opened by this build keeps the voice as the studio's (owner null): every
 * key lists it and speaks with it, no key may change it, the studio may.
 */

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sqlite from 'node-sqlite3-wasm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createApiKey } from '../../../electron/core/jobs/keys';
import { systemClock } from '../../../electron/core/platform/clock';
import { openStore, type Store } from '../../../electron/core/store';
import { MIGRATIONS } from '../../../electron/core/store/migrations';
import { POSTGRES_MIGRATIONS } from '../../../electron/core/store/postgres-migrations';
import { CATALOGUE, createCustomVoices, keyAccess, STUDIO_ACCESS } from '../../../electron/core/voices';
import { createTestDatabase, withClient } from '../../fixtures/postgres';
import { onPostgres } from '../../fixtures/test-store';

const BEFORE_OWNERS = 14;
const DEFINITION = JSON.stringify({
  base: { kind: 'code', voice_code: 'en_female_emily_us' },
  voice_code: 'en_female_emily_us',
  prosody: { speed: 0.9, pitch: 1, volume: 100 },
  lexicon: [
    { match: 'Nguyen', kind: 'respell', replacement: 'Win', case_sensitive: false, whole_word: true },
  ],
  note: 'made before owners',
});
const ROWS = [
  `INSERT INTO api_keys (id, name, key_hash, key_prefix, signing_secret, balance_milli, queued, created_at)
   VALUES ('key_old', 'old app', '${'b'.repeat(64)}', 'nsk_', 'whsec_old', 7000, 0, '2025-01-01T00:00:00.000Z')`,
  `INSERT INTO custom_voices (code, name, definition, created_at, updated_at)
   VALUES ('old-voice', 'Old voice', '${DEFINITION}', '2025-01-02T00:00:00.000Z', '2025-01-02T00:00:00.000Z')`,
];

let dir: string;
let drop: (() => Promise<void>) | undefined;
let store: Store | undefined;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'voice-owners-migration-'));
});
afterEach(async () => {
  await store?.close();
  store = undefined;
  await drop?.();
  drop = undefined;
  rmSync(dir, { recursive: true, force: true });
});

/** A store opened on a database of the run's backend built as version 14 left it. */
async function storeFromVersion14(): Promise<Store> {
  if (onPostgres) {
    const database = await createTestDatabase();
    drop = database.drop;
    await withClient(database.url, async (client) => {
      for (const migration of POSTGRES_MIGRATIONS.slice(0, BEFORE_OWNERS))
        for (const sql of migration) await client.query(sql);
      await client.query('CREATE TABLE schema_version (version INTEGER NOT NULL)');
      await client.query(`INSERT INTO schema_version (version) VALUES (${BEFORE_OWNERS})`);
      for (const sql of ROWS) await client.query(sql);
    });
    return openStore({ url: database.url });
  }
  const path = join(dir, 'v14.db');
  const db = new sqlite.Database(path);
  try {
    for (const migration of MIGRATIONS.slice(0, BEFORE_OWNERS)) for (const sql of migration) db.run(sql);
    db.run(`PRAGMA user_version=${BEFORE_OWNERS}`);
    for (const sql of ROWS) db.run(sql);
  } finally {
    db.close();
  }
  return openStore({ path });
}

describe('custom voices made before owners existed (migration 15)', () => {
  it("are the studio's: every key lists and speaks with them, only the studio changes them", async () => {
    store = await storeFromVersion14();
    expect(await store.customVoices.get('old-voice')).toMatchObject({
      name: 'Old voice',
      definition: DEFINITION,
      owner_key_id: null,
    });
    const voices = createCustomVoices({
      store,
      checks: { installed: async () => [], catalogue: CATALOGUE },
      now: () => new Date().toISOString(),
    });
    const key = (await createApiKey(store, systemClock)).row;
    for (const access of [keyAccess('key_old'), keyAccess(key.id), STUDIO_ACCESS]) {
      expect((await voices.list(access)).map((v) => v.code)).toEqual(['old-voice']);
      expect(await voices.find('old-voice', access)).toMatchObject({
        owner_key_id: null,
        prosody: { speed: 0.9 },
        lexicon: [{ match: 'Nguyen', replacement: 'Win' }],
      });
    }
    const input = {
      code: 'old-voice',
      name: 'Changed',
      base: { kind: 'code', voice_code: 'en_female_emily_us' },
    };
    for (const keyId of ['key_old', key.id]) {
      await expect(voices.replace('old-voice', input, keyAccess(keyId))).rejects.toMatchObject({
        code: 'CUSTOM_VOICE_READ_ONLY',
      });
      await expect(voices.delete('old-voice', keyAccess(keyId))).rejects.toMatchObject({
        code: 'CUSTOM_VOICE_READ_ONLY',
      });
    }
    expect((await store.customVoices.get('old-voice'))?.name).toBe('Old voice');
    expect(await voices.replace('old-voice', input, STUDIO_ACCESS)).toMatchObject({
      name: 'Changed',
      owner_key_id: null,
    });
  });
});
