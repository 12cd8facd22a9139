import type { ChildProcess } from 'node:child_process';

/** A benchmark's server in a child process, asked over IPC: one answer per command, in order. */
export interface ChildServer<Command> {
  child: ChildProcess;
  ask: <T>(command: Command) => Promise<T>;
}

/** Resolves once the child says it is ready (its first message), with a function to ask it. */
export function childServer<Command>(child: ChildProcess): Promise<ChildServer<Command>> {
  const ask = <T>(command: Command) =>
    new Promise<T>((resolve) => {
      child.once('message', (m) => resolve(m as T));
      child.send(command as object);
    });
  return new Promise((resolve) => child.once('message', () => resolve({ child, ask })));
}
