/**
 * The document title (renderer/src/app/document-title.ts): "<item> – <view> – Narration Studio",
 * or "<view> – Narration Studio", in English and Vietnamese from the real catalogues, the view's
 * name being the sidebar's.
 */

import { createIntl } from 'react-intl';
import { describe, expect, it } from 'vitest';
import { documentTitle, signedOutTitle, textStart } from '../../renderer/src/app/document-title';
import en from '../../renderer/src/i18n/messages/en.json';
import vi from '../../renderer/src/i18n/messages/vi.json';
import { VIEWS } from '../../renderer/src/stores/ui-slice';

const english = createIntl({ locale: 'en', messages: en });
const vietnamese = createIntl({ locale: 'vi', messages: vi });

describe('documentTitle', () => {
  it('names the view, then the product, in both languages', () => {
    expect(documentTitle(english, 'studio', null)).toBe('Studio – Narration Studio');
    expect(documentTitle(english, 'library', null)).toBe('Voice library – Narration Studio');
    expect(documentTitle(vietnamese, 'library', null)).toBe('Thư viện giọng đọc – Narration Studio');
    expect(documentTitle(vietnamese, 'history', null)).toBe('Lịch sử – Narration Studio');
  });

  it('puts the open item first: a project by its title, a request by its short id', () => {
    const project = { kind: 'project', title: 'Harbour book' } as const;
    expect(documentTitle(english, 'projects', project)).toBe('Harbour book – Projects – Narration Studio');
    expect(documentTitle(vietnamese, 'projects', project)).toBe('Harbour book – Dự án – Narration Studio');
    const request = { kind: 'request', id: '0123456789abcdef0123456789abcdef' } as const;
    expect(documentTitle(english, 'history', request)).toBe('Request 01234567 – History – Narration Studio');
    expect(documentTitle(vietnamese, 'history', request)).toBe(
      'Yêu cầu 01234567 – Lịch sử – Narration Studio',
    );
  });

  it('names a request by the start of its text once read', () => {
    const request = {
      kind: 'request',
      id: '0123456789abcdef',
      text: 'The lighthouse keeper climbed the stairs at dusk. Far below, the sea rolled in.',
    } as const;
    expect(documentTitle(english, 'history', request)).toBe(
      '“The lighthouse keeper climbed the stairs…” – History – Narration Studio',
    );
    expect(
      documentTitle(vietnamese, 'history', { kind: 'request', id: 'ab', text: 'Xin chào các bạn.' }),
    ).toBe('“Xin chào các bạn.” – Lịch sử – Narration Studio');
  });

  it('leaves out an item with no name', () => {
    expect(documentTitle(english, 'projects', { kind: 'project', title: '  ' })).toBe(
      'Projects – Narration Studio',
    );
  });

  it('gives every view a different title in each language, and names the sign-in page', () => {
    for (const intl of [english, vietnamese]) {
      const titles = VIEWS.map((view) => documentTitle(intl, view, null));
      expect(new Set(titles).size).toBe(VIEWS.length);
    }
    expect(signedOutTitle(english)).toBe('Sign in – Narration Studio');
    expect(signedOutTitle(vietnamese)).toBe('Đăng nhập – Narration Studio');
  });
});

describe('textStart', () => {
  it('keeps a short text whole, its spaces collapsed', () => {
    expect(textStart('  The boats\n came in.  ')).toBe('The boats came in.');
  });
  it('cuts a long one between words, without a trailing comma, with an ellipsis', () => {
    expect(textStart('One, two, three, four, five, six, seven, eight, nine', 20)).toBe('One, two, three…');
    expect(textStart('Supercalifragilisticexpialidocious word', 10)).toBe('Supercalif…');
  });
  it('leaves out SSML tags', () => {
    expect(textStart('<speak><p>Hello <break time="1s"/> there</p></speak>')).toBe('Hello there');
  });
});
