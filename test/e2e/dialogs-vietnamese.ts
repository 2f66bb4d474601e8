/**
 * Every dialog, prompt, disclosure and tooltip of the studio in Vietnamese (issue 38 point 5): in a
 * vi-VN browser, each is opened and read with the judge of every-view-vietnamese.ts (no English
 * word in its text, titles, aria names or placeholders; each label contained in its accessible
 * name; axe 0 while it is open):
 * - the modal questions (ConfirmDialog): clear the draft (Studio), replace the draft (History),
 *   delete a custom voice (Voices), remove a lexicon entry (Lexicon), rotate a key's signing
 *   secret and revoke a key (API);
 * - the lexicon popover (select a word in the Studio's text);
 * - the disclosures: the dialogue voices' paragraph chip, the custom-voice form, a segment's editor;
 * - no browser prompt (window.confirm) anywhere: one would be caught with page.on('dialog'), its
 *   message judged, and the walk failed;
 * - a callback's payload: reachable with Tab, named in Vietnamese.
 * No control may stick out of the dialog or form it is in (Vietnamese words are longer).
 * Tooltips (`title`, `role=tooltip`) are judged in every view and dialog, shown or not yet.
 * Screenshots of three dialogs go to docs/screenshots/vi/dialog-*.png.
 */

import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContextOptions, Locator, Page } from 'playwright-core';
import vi from '../../renderer/src/i18n/messages/vi.json';
import { englishProblems, labelNotInName, type NamedControl, type SeenText } from '../fixtures/english-words';
import { axeViolations, describeViolations } from './axe';
import { DATA, seenScript } from './every-view-vietnamese';
import { openVietnamese } from './harness';
import { animationsDone } from './waits';

type StorageState = Exclude<BrowserContextOptions['storageState'], string | undefined>;

const OUT = join(process.cwd(), 'docs/screenshots/vi');

/** What this walk gives the studio (Vietnamese names, so that they are not taken for English). */
const KEY_NAME = 'Ứng dụng đọc truyện';
const ENTRY = { language: 'vi', match: 'UBND', kind: 'respell', replacement: 'Ủy ban nhân dân' };
const CUSTOM_VOICE = {
  code: 'giong-ke-chuyen',
  name: 'Giọng kể chuyện',
  base: { kind: 'code', voice_code: 'vi_male_lehoang_mb' },
};
const DRAFT = 'Hôm nay trời đẹp quá, chị Dậu nói.';

/** POSTs as the signed-in studio; the answer's result. */
async function post(page: Page, path: string, body: unknown): Promise<Record<string, unknown>> {
  const answer = await page.evaluate(
    async ([path, body]) => {
      const headers = {
        'content-type': 'application/json',
        'x-studio-session': localStorage.getItem('narration-studio.session') ?? '',
      };
      const res = await fetch(path as string, { method: 'POST', headers, body: JSON.stringify(body) });
      return { status: res.status, body: (await res.json()) as { result?: Record<string, unknown> } };
    },
    [path, body] as const,
  );
  assert.ok(answer.status < 300, `POST ${path}: ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body.result ?? {};
}

/** Goes to a view without reloading (the Studio's draft stays as typed). */
async function go(page: Page, hash: string): Promise<void> {
  await page.evaluate((h) => (window.location.hash = h), hash);
  await page.locator('h1').first().waitFor();
  await page.waitForLoadState('networkidle');
}

export async function dialogsInVietnamese(
  browser: Browser,
  baseURL: string,
  storageState: StorageState,
  log: (line: string) => void,
): Promise<void> {
  mkdirSync(OUT, { recursive: true });
  const { context, page, pageErrors } = await openVietnamese(browser, '/#/studio', { baseURL, storageState });
  const problems: string[] = [];
  const prompts: string[] = [];
  // The browser's own prompts: their message judged, then answered No (nothing is changed).
  page.on('dialog', (dialog) => {
    prompts.push(dialog.message());
    problems.push(
      ...englishProblems(`window.${dialog.type()}`, [{ source: 'message', text: dialog.message() }], DATA),
    );
    void dialog.dismiss().catch((e: unknown) => problems.push(`window.${dialog.type()}: ${String(e)}`));
  });

  /** Reads what `root` (a dialog, a form) says, and axe on the page while it is open. */
  const judge = async (where: string, root: string, screenshot?: string) => {
    await page.locator(root).first().waitFor();
    await animationsDone(page);
    const { seen, controls } = (await page.evaluate(seenScript(root))) as {
      seen: SeenText[];
      controls: NamedControl[];
    };
    assert.ok(seen.length > 1, `${where}: something to read in ${root}`);
    problems.push(...englishProblems(where, seen, DATA), ...labelNotInName(where, controls));
    const violations = await axeViolations(page);
    if (violations.length > 0) problems.push(describeViolations(where, violations));
    // Longer Vietnamese words must not push a control out of its box (nor hide it in a scroll).
    const outside = await page.evaluate((selector) => {
      const box = document.querySelector(selector)!;
      const right = box.getBoundingClientRect().right;
      return [...box.querySelectorAll('button, input, select, label, textarea')]
        .filter((e) => e.getBoundingClientRect().width > 0 && e.getBoundingClientRect().right > right + 1)
        .map(
          (e) =>
            `<${e.tagName.toLowerCase()}> “${(e.textContent || e.getAttribute('aria-label') || '').trim()}”`,
        );
    }, root);
    if (outside.length > 0) problems.push(`${where}: sticks out of its box: ${outside.join(', ')}`);
    if (screenshot) await page.screenshot({ path: join(OUT, `dialog-${screenshot}.png`) });
  };
  const cancel = (within: Locator) =>
    within.getByRole('button', { name: vi['common.cancel'], exact: true }).click();
  const confirmDialog = page.locator('dialog.confirm-dialog[open]');

  try {
    const project = (await page.evaluate(async () => {
      const headers = { 'x-studio-session': localStorage.getItem('narration-studio.session') ?? '' };
      return (
        (await (await fetch('/api/v1/projects', { headers })).json()) as {
          result: { items: { id: string }[] };
        }
      ).result.items[0]?.id;
    })) as string | undefined;
    assert.ok(project, 'a project to open');
    await post(page, '/api/v1/keys', { name: KEY_NAME });
    await post(page, '/api/v1/lexicon', ENTRY);
    await post(page, '/api/v1/custom-voices', CUSTOM_VOICE);
    // The studio reads its custom voices when it starts.
    await page.reload();
    await page.waitForFunction(() => document.documentElement.lang === 'vi');

    // Studio: the lexicon popover, from a word selected in the text.
    await go(page, '#/studio');
    const editor = page.getByLabel('Văn bản cần đọc');
    await editor.fill(DRAFT);
    await editor.press('Control+Home');
    for (let i = 0; i < 3; i++) await editor.press('Shift+ArrowRight');
    await page.getByRole('button', { name: 'Thêm “Hôm” vào từ điển phát âm' }).click();
    const popover = page.getByRole('dialog', { name: vi['compose.lexicon.dialog'] });
    await judge('the lexicon popover', '.lexicon-popover', 'lexicon-popover');
    await cancel(popover);
    await popover.waitFor({ state: 'detached' });

    // Studio: Clear asks first.
    await page.getByRole('button', { name: vi['compose.clear.button'], exact: true }).click();
    await judge('Clear the draft?', 'dialog.confirm-dialog[open]', 'clear-draft');
    await cancel(confirmDialog);
    await confirmDialog.waitFor({ state: 'detached' });
    assert.equal(await editor.inputValue(), DRAFT, 'Cancel keeps the draft');

    // Studio: the dialogue voices, a paragraph's chip opened.
    const dialogue = page.getByRole('button', { name: vi['compose.dialogue.toggle'], exact: true });
    await dialogue.click();
    await page.locator('button.voice-chip').first().click();
    await judge('the dialogue voices (a paragraph opened)', 'section.dialogue');
    await dialogue.click();
    log('✓ Studio in Vietnamese: the lexicon popover, “Xoá bản nháp?”, the dialogue voices’ chip');

    // History: Open over a different draft asks first.
    await go(page, '#/history');
    await page.locator('td > button', { hasText: vi['history.open'] }).first().click();
    await judge('Replace the draft?', 'dialog.confirm-dialog[open]', 'replace-draft');
    await cancel(confirmDialog);
    await confirmDialog.waitFor({ state: 'detached' });
    log('✓ History in Vietnamese: “Thay bản nháp?”');

    // Voices: the custom-voice form, and deleting a custom voice asks first.
    await go(page, '#/voices');
    const create = page.getByRole('button', { name: vi['voices.custom.create'], exact: true });
    await create.click();
    await judge('the new custom voice form', 'section:has(button[aria-expanded="true"])');
    await cancel(page.locator('section:has(button[aria-expanded="true"])'));
    await page.getByRole('button', { name: `Xoá ${CUSTOM_VOICE.name} (${CUSTOM_VOICE.code})` }).click();
    await judge('Delete a custom voice?', 'dialog.confirm-dialog[open]');
    await cancel(confirmDialog);
    log('✓ Voices in Vietnamese: the custom-voice form, “Xoá Giọng kể chuyện?”');

    // Lexicon: removing an entry asks first.
    await go(page, '#/lexicon');
    await page.getByRole('button', { name: `Gỡ bỏ ${ENTRY.match}` }).click();
    await judge('Remove a lexicon entry?', 'dialog.confirm-dialog[open]', 'lexicon-remove');
    await cancel(confirmDialog);
    await confirmDialog.waitFor({ state: 'detached' });
    log('✓ Lexicon in Vietnamese: “Gỡ bỏ cách phát âm…?”');

    // The API page's questions: rotate a signing secret, revoke a key.
    await go(page, '#/api');
    await page.getByRole('button', { name: new RegExp(`^Đổi mới khoá ký của ${KEY_NAME}`) }).click();
    await judge('Rotate the signing secret?', 'dialog.confirm-dialog[open]');
    await cancel(confirmDialog);
    await page.getByRole('button', { name: new RegExp(`^Thu hồi khoá ${KEY_NAME}`) }).click();
    await judge('Revoke this key?', 'dialog.confirm-dialog[open]');
    await cancel(confirmDialog);
    log('✓ API in Vietnamese: “Đổi mới khoá ký?”, “Thu hồi khoá này?”');
    assert.deepEqual(prompts, [], "no browser prompt: every question is the studio's own dialog");

    // A project: a segment's editor, opened from the list.
    await go(page, `#/projects/${project}`);
    await page.locator('button.segment-main').first().click();
    await judge('a segment opened', 'main');
    log('✓ a project’s segment editor in Vietnamese');

    // Callbacks: the payload, unfolded, is reached with Tab and named in Vietnamese.
    await go(page, '#/callbacks');
    await page.getByRole('list', { name: vi['callbacks.requests.list'] }).getByRole('button').first().click();
    const summary = page.locator('summary', { hasText: vi['callbacks.attempts.payload'] }).first();
    await summary.click();
    await summary.focus();
    await page.keyboard.press('Tab');
    const focused = await page.evaluate(() => ({
      tag: document.activeElement?.tagName,
      name: document.activeElement?.getAttribute('aria-label'),
    }));
    assert.equal(focused.tag, 'PRE', 'Tab from “Nội dung gửi” reaches the payload');
    assert.match(focused.name ?? '', /^Nội dung gửi của lần gửi thứ \d+$/);
    await judge('a callback’s payload (unfolded)', 'main');
    log(`✓ a callback’s payload is reached with Tab, named “${focused.name}”`);

    assert.deepEqual(pageErrors, [], 'no error on the page');
  } finally {
    await context.close();
  }
  if (problems.length > 0) throw new Error(`Vietnamese dialogs:\n${problems.join('\n')}`);
  log('✓ every dialog, prompt and disclosure in Vietnamese: no English, labels in names, axe 0');
}
