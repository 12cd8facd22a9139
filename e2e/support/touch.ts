import assert from 'node:assert/strict';
import type { Locator, Page } from 'playwright-core';
import { eventually, visible } from './page-helpers.ts';

/** Whether an element lies inside the visible screen (a select the dialog scrolled away is not). */
export async function onScreen(page: Page, element: Locator): Promise<boolean> {
  const box = await element.boundingBox();
  const screen = page.viewportSize();
  return !!box && !!screen && box.y >= 0 && box.y + box.height <= screen.height;
}

/** Takes the focus from a native select or date field, as a phone does once a choice is made: its popup closes. */
async function closeNativePopup(field: Locator): Promise<void> {
  await field.blur();
}

/**
 * Taps every picker of a dialog as a thumb would: each list select opens its list by a tap, stays on the screen, and
 * takes a tapped option; each native select and date field takes a tap and then a value; each toggle button a tap.
 * Returns how many pickers were tapped.
 */
export async function tapEveryPicker(page: Page, dialog: Locator): Promise<number> {
  let tapped = 0;
  // Native selects are comboboxes too: the list selects are the inputs.
  const lists = dialog.getByRole('combobox').and(dialog.locator('input'));
  for (let i = 0; i < (await lists.count()); i++) {
    const select = lists.nth(i);
    if (!(await select.isVisible()) || (await select.isDisabled())) continue;
    await select.scrollIntoViewIfNeeded();
    await select.tap();
    const listbox = await visible(page.getByRole('listbox'));
    assert.ok(await onScreen(page, select), `the select ${i + 1} stays on the screen when tapped`);
    const options = listbox.getByRole('option');
    const last = options.last();
    const label = (await last.innerText()).trim();
    await last.tap();
    await eventually(
      () => select.inputValue(),
      (value) => value === label,
      `select ${i + 1} to take the tapped option "${label}"`,
    );
    tapped++;
  }
  const natives = dialog.locator('select');
  for (let i = 0; i < (await natives.count()); i++) {
    const select = natives.nth(i);
    if (!(await select.isVisible()) || (await select.isDisabled())) continue;
    await select.scrollIntoViewIfNeeded();
    await select.tap();
    const values = await select
      .locator('option')
      .evaluateAll((o) => o.map((x) => (x as unknown as { value: string }).value));
    await select.selectOption(values.at(-1)!);
    assert.equal(await select.inputValue(), values.at(-1));
    // A phone's picker closes once a choice is made; Chromium's popup stays open after selectOption, and would take
    // the next key (an Escape meant for the dialog) for itself.
    await closeNativePopup(select);
    tapped++;
  }
  const dates = dialog.locator('input[type="datetime-local"], input[type="date"]');
  for (let i = 0; i < (await dates.count()); i++) {
    const field = dates.nth(i);
    await field.scrollIntoViewIfNeeded();
    await field.tap();
    assert.ok(await onScreen(page, field), 'a date field stays on the screen when tapped');
    await closeNativePopup(field);
    tapped++;
  }
  // Toggle buttons (the quick ends of a whitelist entry): each takes a tap and shows it is chosen.
  const toggles = dialog.locator('button[aria-pressed]');
  for (let i = 0; i < (await toggles.count()); i++) {
    const toggle = toggles.nth(i);
    await toggle.scrollIntoViewIfNeeded();
    await toggle.tap();
    assert.equal(await toggle.getAttribute('aria-pressed'), 'true', `${await toggle.innerText()} is chosen by a tap`);
    tapped++;
  }
  return tapped;
}
