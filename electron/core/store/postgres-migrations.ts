/**
 * The PostgreSQL dialect of `migrations.ts`: entry N takes the database from version N-1 to N,
 * with the same tables, columns, indexes and names as SQLite's entry N, so one schema version
 * covers both (a test holds the two lists to the same length and the same columns). The version
 * lives in the one-row table `schema_version`. Never edit a released entry; append a new one
 * here and in `migrations.ts` together.
 *
 * Types translated: SQLite's AUTOINCREMENT ids are identity columns, epoch-ms and milli-credit
 * columns BIGINT, REAL is DOUBLE PRECISION; INTEGER (flags such as `generate_srt` stay 0/1)
 * and TEXT (timestamps are ISO strings, as in SQLite) keep their names.
 */
export const POSTGRES_MIGRATIONS: readonly (readonly string[])[] = [
  // 1: keys, requests, callback attempts, credit ledger
  [
    `CREATE TABLE api_keys (
      id TEXT PRIMARY KEY,
      name TEXT NOT NULL,
      key_hash TEXT NOT NULL UNIQUE,
      key_prefix TEXT NOT NULL,
      signing_secret TEXT NOT NULL,
      balance_milli BIGINT NOT NULL,
      queued INTEGER NOT NULL DEFAULT 0,
      created_at TEXT NOT NULL,
      revoked_at TEXT
    )`,
    `CREATE TABLE requests (
      seq BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      id TEXT NOT NULL UNIQUE,
      key_id TEXT NOT NULL REFERENCES api_keys(id),
      source TEXT NOT NULL,
      input_text TEXT NOT NULL,
      characters INTEGER NOT NULL,
      voice_code TEXT NOT NULL,
      model_id TEXT NOT NULL,
      audio_type TEXT NOT NULL,
      bitrate INTEGER NOT NULL,
      speed_rate DOUBLE PRECISION NOT NULL,
      pitch_rate DOUBLE PRECISION NOT NULL,
      volume INTEGER NOT NULL,
      generate_srt INTEGER NOT NULL,
      callback_url TEXT,
      cost_milli BIGINT NOT NULL,
      download_token TEXT NOT NULL,
      status TEXT NOT NULL,
      error_code TEXT,
      error_message TEXT,
      duration_ms INTEGER,
      audio_bytes INTEGER,
      cue_count INTEGER,
      created_at TEXT NOT NULL,
      started_at TEXT,
      finished_at TEXT,
      run_attempts INTEGER NOT NULL DEFAULT 0,
      callback_state TEXT NOT NULL,
      callback_due_at BIGINT,
      callback_round_attempts INTEGER NOT NULL DEFAULT 0,
      callback_attempts INTEGER NOT NULL DEFAULT 0
    )`,
    `CREATE INDEX requests_open ON requests(seq) WHERE status IN ('new', 'processing')`,
    `CREATE INDEX requests_by_key ON requests(key_id, seq)`,
    `CREATE INDEX requests_callback_due ON requests(callback_due_at) WHERE callback_state = 'pending'`,
    `CREATE TABLE callback_attempts (
      id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      request_id TEXT NOT NULL REFERENCES requests(id),
      attempt INTEGER NOT NULL,
      callback_url TEXT NOT NULL,
      created_at TEXT NOT NULL,
      payload TEXT NOT NULL,
      status_code INTEGER,
      result TEXT NOT NULL,
      duration_ms INTEGER NOT NULL
    )`,
    `CREATE INDEX callback_attempts_by_request ON callback_attempts(request_id, id)`,
    `CREATE TABLE ledger (
      id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      key_id TEXT NOT NULL REFERENCES api_keys(id),
      request_id TEXT,
      kind TEXT NOT NULL,
      amount_milli BIGINT NOT NULL,
      balance_after_milli BIGINT NOT NULL,
      created_at TEXT NOT NULL
    )`,
    `CREATE INDEX ledger_by_key ON ledger(key_id, id)`,
  ],
  // 2: the runner takes queued requests fairly across keys (oldest of each key)
  [`CREATE INDEX requests_new_by_key ON requests(key_id, seq) WHERE status = 'new'`],
  // 3: what spoke a finished request: `espeak`, or the neural voice (`piper:<pack>#<speaker>`, …)
  [`ALTER TABLE requests ADD COLUMN engine TEXT`],
  // 4: Idempotency-Key of a submit → the request it created, per API key, kept 24 h
  [
    `CREATE TABLE idempotency_keys (
      key_id TEXT NOT NULL REFERENCES api_keys(id),
      idem_key TEXT NOT NULL,
      request_hash TEXT NOT NULL,
      request_id TEXT NOT NULL REFERENCES requests(id),
      created_at TEXT NOT NULL,
      PRIMARY KEY (key_id, idem_key)
    )`,
    `CREATE INDEX idempotency_keys_by_age ON idempotency_keys(created_at)`,
  ],
  // 5: leases, for several instances on one database: the instance rendering a request and
  // until when (epoch ms) its claim holds unless renewed
  [
    `ALTER TABLE requests ADD COLUMN lease_owner TEXT`,
    `ALTER TABLE requests ADD COLUMN lease_until BIGINT`,
    `CREATE INDEX requests_leased ON requests(lease_until) WHERE status = 'processing'`,
  ],
  // 6: audiobook exports (POST /api/v1/exports): a queue of their own beside requests, claimed
  // under a lease like them; the cover waits in its row (base64) until the export has run
  [
    `CREATE TABLE exports (
      seq BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      id TEXT NOT NULL UNIQUE,
      key_id TEXT NOT NULL REFERENCES api_keys(id),
      input_text TEXT NOT NULL,
      characters INTEGER NOT NULL,
      voice_code TEXT NOT NULL,
      model_id TEXT NOT NULL,
      speed_rate DOUBLE PRECISION NOT NULL,
      pitch_rate DOUBLE PRECISION NOT NULL,
      volume INTEGER NOT NULL,
      preset TEXT NOT NULL,
      format TEXT NOT NULL,
      folder_format TEXT,
      title TEXT,
      author TEXT,
      cover_type TEXT,
      cover_base64 TEXT,
      cost_milli BIGINT NOT NULL,
      download_token TEXT NOT NULL,
      status TEXT NOT NULL,
      progress DOUBLE PRECISION NOT NULL DEFAULT 0,
      cancel_requested INTEGER NOT NULL DEFAULT 0,
      error_code TEXT,
      error_message TEXT,
      chapters TEXT,
      report TEXT,
      duration_ms BIGINT,
      file_bytes BIGINT,
      created_at TEXT NOT NULL,
      started_at TEXT,
      finished_at TEXT,
      run_attempts INTEGER NOT NULL DEFAULT 0,
      lease_owner TEXT,
      lease_until BIGINT
    )`,
    `CREATE INDEX exports_by_key ON exports(key_id, seq)`,
    `CREATE INDEX exports_open ON exports(seq) WHERE status IN ('new', 'processing')`,
  ],
  // 7: a key's stored prefix shows at most 4 of its characters (it kept up to 12)
  [`UPDATE api_keys SET key_prefix = substr(key_prefix, 1, 4)`],
  // 8: Kokoro-FastAPI's dialect: the Kokoro voice or mix a request named (`af_bella(2)+af_sky(1)`;
  // voice_code holds our voice of its language and gender), and whether its word timings are kept
  [
    `ALTER TABLE requests ADD COLUMN kokoro_voice TEXT`,
    `ALTER TABLE requests ADD COLUMN word_timings INTEGER NOT NULL DEFAULT 0`,
  ],
  // 9: a request sent with a voice code that is not ours keeps that code; the voice that speaks
  // it (an alias's, or the closest by the code's words) and how it was found
  [
    `ALTER TABLE requests ADD COLUMN spoken_voice_code TEXT`,
    `ALTER TABLE requests ADD COLUMN voice_match TEXT`,
  ],
  // 10: book projects: a project (a book's settings, owned by a key), its chapters, their segments
  // (text, who speaks it, the state and key of its audio), its cast, its undo history (one row an
  // edit: what undoes it and what redoes it, JSON), and its renders (a queue claimed under a lease)
  [
    `CREATE TABLE projects (
      seq BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      id TEXT NOT NULL UNIQUE,
      key_id TEXT NOT NULL REFERENCES api_keys(id),
      title TEXT NOT NULL,
      author TEXT,
      language TEXT NOT NULL,
      cover_type TEXT,
      cover_base64 TEXT,
      model_id TEXT NOT NULL,
      preset TEXT NOT NULL,
      format TEXT NOT NULL,
      folder_format TEXT,
      source_name TEXT,
      source_format TEXT,
      history_position INTEGER NOT NULL DEFAULT 0,
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL,
      last_export_at TEXT,
      last_export TEXT
    )`,
    `CREATE INDEX projects_by_key ON projects(key_id, seq)`,
    `CREATE TABLE project_chapters (
      id TEXT PRIMARY KEY,
      project_id TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
      position INTEGER NOT NULL,
      title TEXT NOT NULL,
      kind TEXT NOT NULL,
      included INTEGER NOT NULL DEFAULT 1,
      exported_text TEXT
    )`,
    `CREATE INDEX project_chapters_by_project ON project_chapters(project_id, position)`,
    `CREATE TABLE project_characters (
      id TEXT PRIMARY KEY,
      project_id TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
      name TEXT NOT NULL,
      voice_code TEXT NOT NULL,
      speed_rate DOUBLE PRECISION NOT NULL,
      pitch_rate DOUBLE PRECISION NOT NULL,
      volume INTEGER NOT NULL,
      narrator INTEGER NOT NULL DEFAULT 0,
      confirmed INTEGER NOT NULL DEFAULT 1
    )`,
    `CREATE INDEX project_characters_by_project ON project_characters(project_id)`,
    `CREATE TABLE project_segments (
      id TEXT PRIMARY KEY,
      project_id TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
      chapter_id TEXT NOT NULL REFERENCES project_chapters(id) ON DELETE CASCADE,
      position INTEGER NOT NULL,
      text TEXT NOT NULL,
      emphasis TEXT,
      speaker TEXT,
      quotes TEXT,
      suggested_speaker TEXT,
      state TEXT NOT NULL DEFAULT 'not_rendered',
      audio_key TEXT,
      duration_ms BIGINT,
      error TEXT,
      flag_note TEXT,
      checks TEXT,
      rendered_at TEXT
    )`,
    `CREATE INDEX project_segments_by_chapter ON project_segments(chapter_id, position)`,
    `CREATE INDEX project_segments_by_project ON project_segments(project_id, state)`,
    `CREATE TABLE project_history (
      project_id TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
      position INTEGER NOT NULL,
      label TEXT NOT NULL,
      undo TEXT NOT NULL,
      redo TEXT NOT NULL,
      created_at TEXT NOT NULL,
      PRIMARY KEY (project_id, position)
    )`,
    `CREATE TABLE project_renders (
      seq BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      id TEXT NOT NULL UNIQUE,
      project_id TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
      key_id TEXT NOT NULL REFERENCES api_keys(id),
      chapter_ids TEXT NOT NULL,
      segment_ids TEXT,
      status TEXT NOT NULL,
      segments_total INTEGER NOT NULL DEFAULT 0,
      segments_done INTEGER NOT NULL DEFAULT 0,
      characters_total INTEGER NOT NULL DEFAULT 0,
      characters_done INTEGER NOT NULL DEFAULT 0,
      cost_milli BIGINT NOT NULL DEFAULT 0,
      pause_requested INTEGER NOT NULL DEFAULT 0,
      cancel_requested INTEGER NOT NULL DEFAULT 0,
      error_code TEXT,
      error_message TEXT,
      created_at TEXT NOT NULL,
      started_at TEXT,
      finished_at TEXT,
      run_attempts INTEGER NOT NULL DEFAULT 0,
      lease_owner TEXT,
      lease_until BIGINT
    )`,
    `CREATE INDEX project_renders_by_project ON project_renders(project_id, seq)`,
    `CREATE INDEX project_renders_open ON project_renders(seq) WHERE status IN ('queued', 'rendering')`,
  ],
  // 11: what a render warns about (phonemes its voice did not know and left out): a JSON array
  // of sentences, null when there was nothing to say
  [`ALTER TABLE requests ADD COLUMN warnings TEXT`],
  // 12: custom voices (shared/custom-voices.ts): the definition as JSON; and the custom voice a
  // request was accepted with (its definition then, as JSON; null for catalogue voices)
  [
    `CREATE TABLE custom_voices (
      code TEXT PRIMARY KEY,
      name TEXT NOT NULL,
      definition TEXT NOT NULL,
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL
    )`,
    `ALTER TABLE requests ADD COLUMN custom_voice TEXT`,
  ],
  // 13: the custom voice an export was accepted with (its definition then, as JSON; null for
  // catalogue voices)
  [`ALTER TABLE exports ADD COLUMN custom_voice TEXT`],
  // 14: the studio's signed-in sessions, kept across restarts (server/sessions.ts): the SHA-256
  // of the cookie's id and of the session's value, never the values; the key it acts with (its
  // revocation ends the session); the last request's time (ms since the epoch) for the idle end
  [
    `CREATE TABLE studio_sessions (
      id_hash TEXT PRIMARY KEY,
      secret_hash TEXT NOT NULL,
      key_id TEXT NOT NULL REFERENCES api_keys(id),
      created_at TEXT NOT NULL,
      last_used_ms BIGINT NOT NULL
    )`,
    `CREATE INDEX studio_sessions_by_key ON studio_sessions(key_id)`,
  ],
  // 15: a custom voice belongs to the key that made it (issue 36); null: the studio's, the house's
  // voices every key may speak with and only the signed-in studio changes (those made by the
  // studio session or the CLI, and every voice made before owners existed)
  [
    `ALTER TABLE custom_voices ADD COLUMN owner_key_id TEXT REFERENCES api_keys(id)`,
    `CREATE INDEX custom_voices_by_owner ON custom_voices(owner_key_id, code)`,
  ],
  // 16: the SHA-256 of a key's first 12 characters (jobs/keys.ts keyPrefixHash), so the
  // failed-authentication throttle tells a key in use from a guess from its first request, also
  // after a restart (server/auth-throttle.ts); null for a key made before, until it next passes
  [
    `ALTER TABLE api_keys ADD COLUMN prefix_hash TEXT`,
    `CREATE INDEX api_keys_by_prefix_hash ON api_keys(prefix_hash)`,
  ],
  // 17: a failed record's particulars (platform/error-details.ts: plain values as JSON, null
  // when none) beside its error_code and error_message; a failed segment's code beside its error
  [
    `ALTER TABLE requests ADD COLUMN error_details TEXT`,
    `ALTER TABLE project_renders ADD COLUMN error_details TEXT`,
    `ALTER TABLE exports ADD COLUMN error_details TEXT`,
    `ALTER TABLE project_segments ADD COLUMN error_code TEXT`,
    `ALTER TABLE project_segments ADD COLUMN error_details TEXT`,
  ],
  // 18: a delivery attempt's result as a stable code (shared/api.ts CALLBACK_RESULT_CODES:
  // refused, timeout_connect, http, …) beside its English words; null for attempts made before
  [`ALTER TABLE callback_attempts ADD COLUMN result_code TEXT`],
  // 19: whether a character's name is one a person gave (1) or the narrator's default name (0),
  // so the studio words the narrator's role without matching its English name; existing
  // narrators named "Narrator" (the default) get 0, every other character 1
  [
    `ALTER TABLE project_characters ADD COLUMN name_given INTEGER`,
    `UPDATE project_characters SET name_given = CASE WHEN narrator = 1 AND name = 'Narrator' THEN 0 ELSE 1 END`,
  ], // 20: spoken structure (issue 39): whether chapters start with their heading read aloud and
  // the book has opening and closing credits (null: as the preset has it, on for ACX), the
  // credits' narrator name and copyright line, the credits' words when a person edited them (null:
  // made from the project), and each chapter's spoken heading when edited (null: from its title)
  [
    `ALTER TABLE projects ADD COLUMN speak_headings INTEGER`,
    `ALTER TABLE projects ADD COLUMN credits INTEGER`,
    `ALTER TABLE projects ADD COLUMN narrator_name TEXT`,
    `ALTER TABLE projects ADD COLUMN copyright TEXT`,
    `ALTER TABLE projects ADD COLUMN opening_credits TEXT`,
    `ALTER TABLE projects ADD COLUMN closing_credits TEXT`,
    `ALTER TABLE project_chapters ADD COLUMN spoken_heading TEXT`,
  ],
  // 21: the studio's own keys (server/sessions.ts createStudioKey; 1, else 0) and a ledger entry's
  // source key (a `transfer`: the balance of a revoked studio key moved to the studio's new key,
  // jobs/keys.ts); keys named "Studio" were the studio's own before
  [
    `ALTER TABLE api_keys ADD COLUMN studio INTEGER NOT NULL DEFAULT 0`,
    `UPDATE api_keys SET studio = 1 WHERE name = 'Studio'`,
    `ALTER TABLE ledger ADD COLUMN from_key_id TEXT`,
  ],
  // 22: project (book) exports in the exports queue beside text exports (issue 41): a row's kind
  // (`text`, or `project` for POST /api/v1/projects/<id>/exports), its project and, for a project
  // export, its record's own fields as JSON (projects/project-export.ts); they were record.json files
  [
    `ALTER TABLE exports ADD COLUMN kind TEXT NOT NULL DEFAULT 'text'`,
    `ALTER TABLE exports ADD COLUMN project_id TEXT`,
    `ALTER TABLE exports ADD COLUMN project_state TEXT`,
  ],
];
