import { Alert, type AlertProps } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';

/** How the console shows a problem the operator should act on: a light red alert, a warning sign unless told. */
export function ProblemAlert({ icon = <IconAlertTriangle size={18} />, ...props }: AlertProps) {
  return <Alert color="red" variant="light" icon={icon} {...props} />;
}
