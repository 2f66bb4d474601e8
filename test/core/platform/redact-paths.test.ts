/** Paths of this machine taken out of texts that leave it, the server's own routes and URLs kept. */

import { describe, expect, it } from 'vitest';
import { redactPaths } from '../../../electron/core/platform/redact-paths';

describe('redactPaths', () => {
  it('shortens POSIX, Windows and UNC paths, quoted or not, to their last part', () => {
    const cases: [string, string][] = [
      [
        "Could not create the audio file: ENOTDIR: not a directory, open '/home/ana/.local/share/narration-studio/audio/x.mp3.partial'",
        "Could not create the audio file: ENOTDIR: not a directory, open '…/x.mp3.partial'",
      ],
      ['The database /srv/narration/studio.db is in use.', 'The database …/studio.db is in use.'],
      [
        "EACCES: permission denied, mkdir '/Users/ana/Library/Application Support/Narration Studio/Data/audio'",
        "EACCES: permission denied, mkdir '…/audio'",
      ],
      [
        "EPERM: operation not permitted, open 'C:\\Users\\ana\\AppData\\Roaming\\Narration Studio\\Data\\audio\\x.wav'",
        "EPERM: operation not permitted, open '…/x.wav'",
      ],
      ['UNC \\\\server\\share\\books\\a.docx here', 'UNC …/a.docx here'],
      ['could not rename /tmp/a/b/: busy', 'could not rename …/b: busy'],
    ];
    for (const [text, expected] of cases) expect(redactPaths(text)).toBe(expected);
  });

  it("keeps the server's own routes, URLs, relative paths and fractions", () => {
    for (const text of [
      'No route GET /api/v1/nothing.',
      'No route GET /v1/audio/nothing.',
      'see http://127.0.0.1:8787/files/a/b/audio.mp3 and https://host/a/b/c',
      'a/b relative stays',
      'ratio 1/2 and 3/4/5',
      'Data folder must be an absolute path on this computer.',
    ])
      expect(redactPaths(text)).toBe(text);
  });
});
