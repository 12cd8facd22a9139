// A node:test reporter that writes, per test file, the seconds its top-level tests took (they run one
// after another within a file), as JSON lines to its destination. .ci/test.mjs prints the slowest files
// of each lane from it, to keep its LONG_FIRST list true.
export default async function* fileTimes(source) {
  const seconds = new Map();
  for await (const event of source) {
    if ((event.type !== 'test:pass' && event.type !== 'test:fail') || event.data.nesting !== 0 || !event.data.file)
      continue;
    const { file, details } = event.data;
    seconds.set(file, (seconds.get(file) ?? 0) + (details?.duration_ms ?? 0) / 1000);
  }
  for (const [file, s] of seconds) yield `${JSON.stringify({ file, seconds: Math.round(s * 10) / 10 })}\n`;
}
