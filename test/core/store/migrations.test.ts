/**
 * Every schema version upgrades to the newest with its rows kept: a database is built as the
 * release at version N left it (its migrations only, the app's pragmas, rows of every table),
 * then opened by this build.
 */

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sqlite from 'node-sqlite3-wasm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openStore, SCHEMA_VERSION } from '../../../electron/core/store';
import { MIGRATIONS } from '../../../electron/core/store/migrations';
import { systemClock } from '../../../electron/core/platform/clock';
import { createApiKey } from '../../../electron/core/jobs/keys';
import { createProjectService } from '../../../electron/core/projects/project-service';
import type { ProjectDetail } from '../../../electron/shared/projects';
import { BOOK } from '../../fixtures/project-books';
import { onPostgres } from '../../fixtures/test-store';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'migrations-test-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

type Raw = InstanceType<typeof sqlite.Database>;

/** Opens a file the way the app does (exclusive locking, then WAL), without migrating it. */
function openRaw(path: string): Raw {
  const db = new sqlite.Database(path);
  db.get('PRAGMA locking_mode=EXCLUSIVE');
  db.get('PRAGMA journal_mode=WAL');
  return db;
}

/** A database at schema version `version`, with one key, request, callback attempt and ledger entry. */
function databaseAtVersion(path: string, version: number): void {
  const db = openRaw(path);
  try {
    for (const migration of MIGRATIONS.slice(0, version)) for (const sql of migration) db.run(sql);
    db.run(`PRAGMA user_version=${version}`);
    db.run(
      `INSERT INTO api_keys (id, name, key_hash, key_prefix, signing_secret, balance_milli, queued, created_at)
       VALUES ('key_1', 'old app', '${'b'.repeat(64)}', '${version < 7 ? 'nsk_0ldPr3fx' : 'nsk_'}', 'whsec_old', 7000, 1, '2025-01-01T00:00:00.000Z')`,
    );
    db.run(
      `INSERT INTO requests (id, key_id, source, input_text, characters, voice_code, model_id, audio_type,
         bitrate, speed_rate, pitch_rate, volume, generate_srt, callback_url, cost_milli, download_token,
         status, duration_ms, audio_bytes, cue_count, created_at, started_at, finished_at, run_attempts,
         callback_state, callback_attempts)
       VALUES ('${'a'.repeat(32)}', 'key_1', 'api', 'Xin chào', 8, 'vi_female_thuytrang_mb', 'std-v1.5', 'mp3',
         64, 1.2, 0.9, 120, 1, 'http://127.0.0.1:9/hook', 3000, 'tok', 'SUCCESS', 1234, 5678, 1,
         '2025-01-01T00:00:01.000Z', '2025-01-01T00:00:02.000Z', '2025-01-01T00:00:03.000Z', 1, 'delivered', 1)`,
    );
    db.run(
      `INSERT INTO requests (id, key_id, source, input_text, characters, voice_code, model_id, audio_type,
         bitrate, speed_rate, pitch_rate, volume, generate_srt, cost_milli, download_token, status,
         created_at, callback_state)
       VALUES ('${'c'.repeat(32)}', 'key_1', 'api', 'Waiting.', 8, 'en_female_emily_us', 'std-v1.6', 'wav',
         128, 1, 1, 100, 0, 3000, 'tok2', 'new', '2025-01-01T00:00:04.000Z', 'none')`,
    );
    db.run(
      `INSERT INTO callback_attempts (request_id, attempt, callback_url, created_at, payload, status_code, result, duration_ms)
       VALUES ('${'a'.repeat(32)}', 1, 'http://127.0.0.1:9/hook', '2025-01-01T00:00:03.500Z', '{}', 200, 'HTTP 200', 12)`,
    );
    db.run(
      `INSERT INTO ledger (key_id, request_id, kind, amount_milli, balance_after_milli, created_at)
       VALUES ('key_1', '${'a'.repeat(32)}', 'charge', -3000, 7000, '2025-01-01T00:00:01.000Z')`,
    );
  } finally {
    db.close();
  }
}

/** The schema as SQLite keeps it (tables and indexes with their SQL), and the version in the header. */
function schemaOf(path: string): { version: number; objects: string[] } {
  const db = openRaw(path);
  try {
    const version = (db.get('PRAGMA user_version') as { user_version: number }).user_version;
    const rows = db.all(
      "SELECT type, name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' ORDER BY type, name",
    ) as Array<{ type: string; name: string; sql: string }>;
    return { version, objects: rows.map((r) => `${r.type} ${r.name}: ${r.sql.replace(/\s+/g, ' ')}`) };
  } finally {
    db.close();
  }
}

describe('schema migrations', () => {
  it('has a numbered migration for every version this build knows', () => {
    expect(MIGRATIONS.length).toBe(SCHEMA_VERSION);
    for (const migration of MIGRATIONS) expect(migration.length).toBeGreaterThan(0);
  });

  const olderVersions = Array.from({ length: SCHEMA_VERSION - 1 }, (_, i) => i + 1);
  // The files older releases left: SQLite only (PostgreSQL has no database older than version 5).
  it.skipIf(onPostgres).each(olderVersions)(
    'upgrades a version %i database to the newest and keeps its rows',
    async (version) => {
      const path = join(dir, `v${version}.db`);
      databaseAtVersion(path, version);

      const store = await openStore({ path });
      try {
        expect(await store.keys.findById('key_1')).toMatchObject({
          name: 'old app',
          // The prefix releases before version 7 kept (12 characters) is cut to 4.
          key_prefix: 'nsk_',
          // Made before version 16: its prefix hash is written at its next success.
          prefix_hash: null,
          signing_secret: 'whsec_old',
          balance_milli: 7000,
          queued: 1,
          revoked_at: null,
        });
        expect(await store.requests.get('a'.repeat(32))).toMatchObject({
          key_id: 'key_1',
          input_text: 'Xin chào',
          voice_code: 'vi_female_thuytrang_mb',
          model_id: 'std-v1.5',
          bitrate: 64,
          speed_rate: 1.2,
          pitch_rate: 0.9,
          volume: 120,
          status: 'SUCCESS',
          duration_ms: 1234,
          callback_state: 'delivered',
          lease_owner: null,
          lease_until: null,
          kokoro_voice: null,
          word_timings: 0,
        });
        expect(await store.requests.get('c'.repeat(32))).toMatchObject({
          status: 'new',
          audio_type: 'wav',
          lease_owner: null,
          lease_until: null,
        });
        // A request queued by the old release is claimed as any other.
        expect(
          await store.requests.claim(['c'.repeat(32)], '2025-01-02T00:00:00.000Z', { owner: 'me', until: 1 }),
        ).toMatchObject({ status: 'processing', run_attempts: 1, lease_owner: 'me', lease_until: 1 });
        expect(await store.callbacks.list('a'.repeat(32))).toEqual([
          // Recorded before result codes (version 18): null, its words kept.
          expect.objectContaining({ attempt: 1, status_code: 200, result: 'HTTP 200', result_code: null }),
        ]);
        expect(await store.ledger.list('key_1', 10, 0)).toMatchObject({
          total: 1,
          rows: [{ kind: 'charge', amount_milli: -3000, balance_after_milli: 7000 }],
        });
      } finally {
        await store.close();
      }

      // The upgraded file has exactly the schema of a new one, and says so in its header.
      const fresh = join(dir, 'fresh.db');
      await (await openStore({ path: fresh })).close();
      const upgraded = schemaOf(path);
      expect(upgraded.version).toBe(SCHEMA_VERSION);
      expect(upgraded.objects).toEqual(schemaOf(fresh).objects);
    },
  );

  it.skipIf(onPostgres)(
    'version 19 marks a version 18 narrator named "Narrator" as the default name, every other name as given',
    async () => {
      const path = join(dir, 'v18.db');
      const store = await openStore({ path });
      const service = createProjectService({ store, filesDir: join(dir, 'files') });
      const keyId = (await createApiKey(store, systemClock)).row.id;
      const untouched = await service.createFromManuscript(keyId, BOOK, {
        voice_code: 'vi_male_minhtriet_mb',
      });
      const renamed = await service.createFromManuscript(keyId, BOOK, {
        voice_code: 'vi_male_minhtriet_mb',
      });
      const narratorOf = (detail: ProjectDetail) => detail.characters.find((c) => c.narrator)!;
      await service.updateCharacter(keyId, renamed.project.id, narratorOf(renamed).id, {
        name: 'Người kể',
      });
      // A text export accepted before version 22: it stays a text export in the one queue.
      const exportId = 'e'.repeat(32);
      await store.exports.insert({
        id: exportId,
        key_id: keyId,
        input_text: 'Xin chào',
        characters: 8,
        voice_code: 'vi_male_minhtriet_mb',
        model_id: 'std-v1.5',
        speed_rate: 1,
        pitch_rate: 1,
        volume: 100,
        preset: 'none',
        format: 'mp3',
        folder_format: null,
        title: null,
        author: null,
        cover_type: null,
        cover_base64: null,
        cost_milli: 8,
        custom_voice: null,
        download_token: 'token',
        created_at: '2026-01-01T00:00:00.000Z',
      });
      await store.close();
      // As version 18 left the file: no name_given column (nor the columns of versions 20-22).
      const raw = openRaw(path);
      raw.run('ALTER TABLE project_characters DROP COLUMN name_given');
      for (const column of [
        'speak_headings',
        'credits',
        'narrator_name',
        'copyright',
        'opening_credits',
        'closing_credits',
      ])
        raw.run(`ALTER TABLE projects DROP COLUMN ${column}`);
      raw.run('ALTER TABLE project_chapters DROP COLUMN spoken_heading');
      raw.run('ALTER TABLE api_keys DROP COLUMN studio');
      raw.run('ALTER TABLE ledger DROP COLUMN from_key_id');
      for (const column of ['kind', 'project_id', 'project_state'])
        raw.run(`ALTER TABLE exports DROP COLUMN ${column}`);
      raw.run('PRAGMA user_version=18');
      raw.close();

      const upgraded = await openStore({ path });
      try {
        const again = createProjectService({ store: upgraded, filesDir: join(dir, 'files') });
        const first = await again.detail(keyId, untouched.project.id);
        const second = await again.detail(keyId, renamed.project.id);
        expect(await upgraded.exports.get(exportId)).toMatchObject({
          kind: 'text',
          project_id: null,
          status: 'new',
        });
        expect(await upgraded.exports.queued()).toEqual([{ id: exportId, key_id: keyId, seq: 1 }]);
        expect(await upgraded.exports.queued('project')).toEqual([]);
        expect(narratorOf(first)).toMatchObject({ name: 'Narrator', named: false });
        expect(narratorOf(second)).toMatchObject({ name: 'Người kể', named: true });
        expect(first.characters.filter((c) => !c.narrator).every((c) => c.named)).toBe(true);
        const rows = await upgraded.projects.characters(untouched.project.id);
        expect(rows.map((r) => r.name_given).sort()).toEqual(rows.map((r) => (r.narrator ? 0 : 1)).sort());
      } finally {
        await upgraded.close();
      }
    },
  );
});
