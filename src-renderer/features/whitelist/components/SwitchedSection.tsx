import { Divider, Switch } from '@mantine/core';
import type { ChangeEvent, ReactNode } from 'react';

/** A titled part of a settings form that a switch turns on: its fields show only while it is on. */
export function SwitchedSection({
  title,
  label,
  description,
  checked,
  onChange,
  children,
}: {
  title: string;
  /** The switch's label and hint. */
  label: string;
  description: string;
  checked: boolean;
  onChange: (event: ChangeEvent<HTMLInputElement>) => void;
  children: ReactNode;
}) {
  return (
    <>
      <Divider label={title} labelPosition="left" />
      <Switch label={label} description={description} checked={checked} onChange={onChange} />
      {checked && children}
    </>
  );
}
