import type { Locator } from 'playwright-core';
import { visible } from '../support/page-helpers.ts';
import { Part } from './form.ts';
import { Screen } from './screen.ts';

type Service = 'SIP' | 'WEB' | 'AMI' | 'IAX';

interface FilterFields {
  permit?: string;
  deny?: string;
  description?: string;
  /** Services whose "Allow" box is cleared. */
  block?: Service[];
  trusted?: boolean;
  local?: boolean;
}

/** The "New network filter" and "Edit filter" dialogs. */
class FilterDialog extends Part {
  async fill(fields: FilterFields): Promise<void> {
    if (fields.permit !== undefined) await this.root.getByRole('textbox', { name: 'Network' }).fill(fields.permit);
    if (fields.deny !== undefined) await this.root.getByRole('textbox', { name: 'Deny' }).fill(fields.deny);
    if (fields.description !== undefined) await this.root.getByLabel('Description').fill(fields.description);
    for (const service of fields.block ?? []) await this.allow(service).uncheck();
    if (fields.trusted) await this.root.getByRole('switch', { name: /^Trusted/ }).check({ force: true });
    if (fields.local) await this.root.getByRole('switch', { name: /^Local network/ }).check({ force: true });
  }

  /** The "Allow <service>" box. */
  allow(service: Service): Locator {
    return this.root.getByLabel(`Allow ${service}`);
  }

  /** Presses "Create filter" or "Save filter", whichever the dialog has. */
  submit(): Promise<void> {
    return this.root.getByRole('button', { name: /^(Create|Save) filter$/ }).click();
  }

  /** Submits and waits for the dialog to close. */
  async save(): Promise<void> {
    await this.submit();
    await this.screen.dialogsClosed();
  }

  async cancel(): Promise<void> {
    await this.root.getByRole('button', { name: 'Cancel' }).click();
    await this.screen.dialogsClosed();
  }

  /** The error under the Network or Deny field. */
  error(field: 'Network' | 'Deny'): Locator {
    return this.screen.fieldError(this.root, field);
  }

  /** Waits for a text of the dialog (an error from the form). */
}

/** The "Block a network" dialog: a filter that denies one address or network. */
class BlockDialog extends Part {
  async fill(fields: { address?: string; reason?: string }): Promise<void> {
    if (fields.address !== undefined) await this.root.getByLabel('Address or network').fill(fields.address);
    if (fields.reason !== undefined) await this.root.getByLabel('Reason').fill(fields.reason);
  }

  submit(): Promise<void> {
    return this.root.getByRole('button', { name: 'Block' }).click();
  }
}

/** The confirmation of a filter's delete, with the keys that must move first. */
class DeleteFilterDialog extends Part {
  usedBy(key: string): Locator {
    return this.root.getByTestId('filter-used-by').filter({ hasText: key });
  }

  moveTo(source: string): Promise<void> {
    return this.screen.choose('Move the key to', source, this.root);
  }

  moveAndDelete(): Promise<void> {
    return this.root.getByRole('button', { name: 'Move key and delete' }).click();
  }
}

/** The Network filters screen. */
export class FiltersScreen extends Screen {
  show(): Promise<void> {
    return this.open('Network filters');
  }

  /** The row of a filter, by its network. */
  row(permit: string): Locator {
    return this.byTestId('filter-row', permit);
  }

  async openNew(): Promise<FilterDialog> {
    return new FilterDialog(this, await this.pressForDialog('New filter', 'New network filter'));
  }

  /** Creates a filter with the "New filter" dialog and waits for its row. */
  async create(fields: FilterFields & { permit: string }): Promise<Locator> {
    const dialog = await this.openNew();
    await dialog.fill(fields);
    await dialog.save();
    return visible(this.row(fields.permit));
  }

  async edit(permit: string): Promise<FilterDialog> {
    await this.rowAction(permit, 'Edit', this.row(permit));
    return new FilterDialog(this, await visible(this.dialog(`Edit filter ${permit}`)));
  }

  /** The "Block a network" dialog. */
  async openBlock(): Promise<BlockDialog> {
    return new BlockDialog(this, await this.pressForDialog('Block a network'));
  }

  /** The per-service rule a row shows, e.g. "SIP from 10.0.0.0/8: blocked". */
  rule(row: Locator, label: string): Locator {
    return row.getByLabel(label);
  }

  /** The "Used by" cell of a row, when it names a key. */
  usedBy(row: Locator, key: string): Locator {
    return row.getByTestId('filter-used-by-cell').filter({ hasText: key });
  }

  /** Delete from the row's menu: the confirmation, which lists the keys bound to the filter. */
  async openDelete(permit: string): Promise<DeleteFilterDialog> {
    await this.rowAction(/Actions for/, 'Delete', this.row(permit));
    return new DeleteFilterDialog(this, await visible(this.dialog(`Delete the filter for ${permit}?`)));
  }

  /** Deletes a filter no key uses, after the confirmation. */
  async delete(permit: string): Promise<void> {
    await this.rowAction(permit, 'Delete');
    await this.confirm('Delete filter');
    await this.row(permit).waitFor({ state: 'detached' });
  }
}
