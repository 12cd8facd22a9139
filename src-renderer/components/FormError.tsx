import { Alert } from '@mantine/core';

/** The server's errors that name no field of the form, announced to screen readers. */
export function FormError({ messages }: { messages: string[] }) {
  if (messages.length === 0) return null;
  return (
    <Alert color="red" variant="light" role="alert">
      {messages.join(' ')}
    </Alert>
  );
}
