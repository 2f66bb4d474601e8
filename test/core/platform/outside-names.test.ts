/** The one gate from an outside name to a path on disk, fed hostile names. */

import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { outsideNameProblem, pathInside } from '../../../electron/core/platform/outside-names';

const folder = resolve('/data/voices/.tmp-1/.download');
const refuse = (problem: string) => new Error(`refused: ${problem}`);

describe('pathInside', () => {
  it('refuses every hostile single name, and says why', () => {
    const hostile: [name: string, why: RegExp][] = [
      ['', /empty/],
      ['.', /"\." part/],
      ['..', /"\.\." part/],
      [decodeURIComponent('..%2F..%2F..%2F..%2F..%2FOUTSIDE'), /path separator/],
      [decodeURIComponent('..%2F..%2F..%2F..%2F..%2Fvictim.txt'), /path separator/],
      [decodeURIComponent('..%5C..%5Cvictim.txt'), /backslash/],
      ['a\\b.onnx', /backslash/],
      ['voice.onnx\0.png', /NUL/],
      ['voice\n.onnx', /control character/],
      ['/etc/passwd', /absolute path/],
      ['/', /absolute path/],
      ['C:\\Windows\\win.ini', /backslash/],
      ['C:evil.onnx', /drive letter/],
      ['c:', /drive letter/],
      ['\\\\server\\share\\x', /backslash/],
      ['model.onnx:stream', /":"/],
      ['CON', /device name/],
      ['nul.onnx', /device name/],
      ['COM1.json', /device name/],
      ['model.onnx.', /dot or a space/],
      ['model.onnx ', /dot or a space/],
      ['voices/af_heart.bin', /path separator/],
    ];
    for (const [name, why] of hostile) {
      expect(outsideNameProblem(name), JSON.stringify(name)).toMatch(why);
      expect(() => pathInside(folder, name, refuse), JSON.stringify(name)).toThrow(/^refused: /);
    }
  });

  it('refuses nested paths that climb, start at a root or have empty parts', () => {
    const hostile = [
      '../x',
      'a/../../x',
      'a/./b',
      'a//b',
      'a/b/',
      '/abs/x',
      'a/..',
      'voices/../../manifest.json',
      'C:/x',
      'a\\..\\..\\x',
    ];
    for (const name of hostile) {
      expect(outsideNameProblem(name, true), name).toBeDefined();
      expect(() => pathInside(folder, name, refuse, { nested: true }), name).toThrow(/^refused: /);
    }
  });

  it('takes ordinary names, and encoded text stays literal (decoded once by the caller)', () => {
    expect(pathInside(folder, 'en_GB-alba-medium.onnx', refuse)).toBe(join(folder, 'en_GB-alba-medium.onnx'));
    expect(pathInside(folder, '..%2F..%2Fx', refuse)).toBe(join(folder, '..%2F..%2Fx'));
    expect(pathInside(folder, '...onnx', refuse)).toBe(join(folder, '...onnx'));
    expect(pathInside(folder, 'voices/af_heart.bin', refuse, { nested: true })).toBe(
      join(folder, 'voices', 'af_heart.bin'),
    );
    expect(pathInside(folder, '声音 1.onnx', refuse)).toBe(join(folder, '声音 1.onnx'));
  });
});
