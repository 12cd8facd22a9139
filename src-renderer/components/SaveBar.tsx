import { Button, Group, Paper, Text } from '@mantine/core';
import { createContext, useContext, useEffect, useId, useRef, useState, type ReactNode } from 'react';

/** A form with unsaved edits, as the save bar lists it. */
interface Pending {
  name: string;
  saving: boolean;
  save: () => void;
  discard: () => void;
}

type Register = (id: string, entry: Pending | null) => void;
const SaveBarContext = createContext<Register | null>(null);

/**
 * One save bar for a page of several settings forms (Settings): it names the forms with unsaved edits and saves or
 * discards them all, instead of a Save button under each form. Each form still shows its own errors under its
 * fields, and its own notice once saved.
 */
export function SaveBarPage({ children }: { children: ReactNode }) {
  const [pending, setPending] = useState<Record<string, Pending>>({});
  const register: Register = (id, entry) =>
    setPending((current) => {
      if (!entry) {
        if (!(id in current)) return current;
        const { [id]: _gone, ...rest } = current;
        return rest;
      }
      return { ...current, [id]: entry };
    });
  const forms = Object.values(pending);
  const saving = forms.some((f) => f.saving);
  return (
    <SaveBarContext.Provider value={register}>
      <Paper
        component="section"
        aria-label="Unsaved changes"
        withBorder
        shadow="md"
        p="sm"
        mb="lg"
        pos="sticky"
        // At the top, under the header: toasts come up at the bottom and would cover it there.
        top="calc(var(--app-shell-header-offset, 0px) + 8px)"
        style={{ zIndex: 5 }}
      >
        <Group justify="space-between" gap="xs">
          <Text size="sm" role="status">
            {forms.length ? `Not saved: ${forms.map((f) => f.name).join(', ')}` : 'Every change is saved.'}
          </Text>
          <Group gap="xs">
            <Button variant="default" disabled={!forms.length} onClick={() => forms.forEach((f) => f.discard())}>
              Discard
            </Button>
            <Button disabled={!forms.length} loading={saving} onClick={() => forms.forEach((f) => f.save())}>
              Save changes
            </Button>
          </Group>
        </Group>
      </Paper>
      {children}
    </SaveBarContext.Provider>
  );
}

/**
 * Lists a form in the page's save bar while it has unsaved edits (`entry` null once saved). Returns whether the page
 * has a save bar (the form then shows no Save button of its own).
 */
export function useSaveBar(entry: Pending | null): boolean {
  const register = useContext(SaveBarContext);
  const id = useId();
  // The latest save and discard, without registering again on every render.
  const latest = useRef(entry);
  latest.current = entry;
  useEffect(() => {
    register?.(
      id,
      entry && {
        name: entry.name,
        saving: entry.saving,
        save: () => latest.current?.save(),
        discard: () => latest.current?.discard(),
      },
    );
  }, [register === null, id, entry === null, entry?.name, entry?.saving]);
  useEffect(() => () => register?.(id, null), []);
  return register !== null;
}
