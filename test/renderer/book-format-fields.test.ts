/**
 * The export format picker shared by the Export view's audiobook, a project's export and its book
 * settings (components/BookFormatFields.tsx on components/SelectField.tsx): each label names its
 * select, every book format is offered in the interface's language with the chosen one selected,
 * and the chapters' format (MP3, WAV) is asked only for one file per chapter.
 */
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { IntlProvider } from 'react-intl';
import { describe, expect, it } from 'vitest';
import type { BookFormat } from '../../electron/shared/book-exports';
import { BookFormatFields } from '../../renderer/src/components/BookFormatFields';
import en from '../../renderer/src/i18n/messages/en.json';
import vi from '../../renderer/src/i18n/messages/vi.json';

const render = (locale: 'en' | 'vi', format: BookFormat) =>
  renderToStaticMarkup(
    createElement(
      IntlProvider,
      { locale, messages: locale === 'vi' ? vi : en },
      createElement(BookFormatFields, {
        id: 'x-format',
        label: 'Export format',
        folderLabel: 'Each chapter as',
        format,
        folderFormat: 'wav',
        onFormat: () => undefined,
        onFolderFormat: () => undefined,
      }),
    ),
  );

describe('BookFormatFields', () => {
  it('offers every book format by its name in the interface language, the chosen one selected', () => {
    const html = render('en', 'mp3');
    expect(html).toContain('<label for="x-format">Export format</label><select id="x-format">');
    expect(
      [...html.matchAll(/<option value="(\w+)"( selected="")?>([^<]*)</g)].map((m) => m.slice(1)),
    ).toEqual([
      ['m4b', undefined, en['export.format.m4b']],
      ['mp3', ' selected=""', en['export.format.mp3']],
      ['folder', undefined, en['export.format.folder']],
    ]);
    expect(html).not.toContain('Each chapter as');
    expect(render('vi', 'm4b')).toContain(`>${vi['export.format.m4b']}<`);
  });

  it('asks the chapters’ format only for one file per chapter', () => {
    const html = render('en', 'folder');
    expect(html).toContain(
      '<label for="x-format-folder">Each chapter as</label><select id="x-format-folder">' +
        '<option value="mp3">MP3</option><option value="wav" selected="">WAV</option></select>',
    );
  });
});
