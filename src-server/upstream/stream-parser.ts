import { Worker } from 'node:worker_threads';
import { MAX_UPSTREAM_TEXT, UPSTREAM_UNSAFE_SOURCE } from './upstream-text.ts';

/** One upstream decision as the parser hands it over (durations relative to the answer's arrival). */
export interface PulledDecision {
  id: number;
  value: string;
  /** `Ip` or `Range`. */
  scope: 'Ip' | 'Range';
  scenario: string;
  origin: string;
  /** Milliseconds left when the answer arrived (negative for deleted decisions). */
  durationMs: number;
}

/** A parsed `/v1/decisions/stream` answer: packed records (see `unpack`), with what was skipped. */
export interface ParsedStream {
  /** `id \t value \t scope \t scenario \t origin \t durationMs` records joined by `\n` (one string crosses the thread boundary cheaply). */
  added: string;
  deleted: string;
  addedCount: number;
  deletedCount: number;
  /** Decisions of scopes this PBX cannot enforce (`Country`, `AS`...) and types other than `ban`, by name. */
  skipped: Record<string, number>;
  /** Entries that were not decisions at all (missing or mistyped fields). */
  malformed: number;
  /** Decisions in `new` whose scenario or origin was reduced to the safe set or cut (upstream-text.ts). */
  reduced: number;
}

/**
 * The parser, run in its own thread: JSON.parse of a 100k-decision answer (tens of MB) would hold
 * the web thread for a few hundred ms. Plain JavaScript in a string, so the same code runs from
 * the sources (tsx) and from the build, with nothing to resolve.
 */
const PARSER_SOURCE = String.raw`
const { parentPort } = require('node:worker_threads');
const UNITS = { h: 3600000, m: 60000, s: 1000, ms: 1, us: 0.001, 'µs': 0.001, ns: 0.000001 };
function durationMs(text) {
  if (typeof text !== 'string') return NaN;
  const match = /^(-?)((?:\d+(?:\.\d+)?(?:h|ms|m|s|us|µs|ns))+)$/.exec(text.trim());
  if (!match) return NaN;
  let total = 0;
  const parts = /(\d+(?:\.\d+)?)(h|ms|m|s|us|µs|ns)/g;
  let part;
  while ((part = parts.exec(match[2])) !== null) total += Number(part[1]) * UNITS[part[2]];
  return Math.round(match[1] === '-' ? -total : total);
}
const clean = (text) => String(text).replace(/[\t\n\r]/g, ' ');
// upstream-text.ts's rule: the same expression and bound, so the text is safe before it is packed.
const UNSAFE = new RegExp(${JSON.stringify(UPSTREAM_UNSAFE_SOURCE)}, 'gu');
const safe = (text) => String(text ?? '').replace(UNSAFE, '_').slice(0, ${MAX_UPSTREAM_TEXT});
function pack(list, out, counted) {
  if (list === null || list === undefined) return { text: '', count: 0 };
  if (!Array.isArray(list)) throw new Error('"new" and "deleted" must be arrays or null');
  const lines = [];
  for (const d of list) {
    if (!d || typeof d !== 'object' || typeof d.value !== 'string' || typeof d.scope !== 'string' ||
      typeof d.id !== 'number' || typeof d.duration !== 'string') {
      out.malformed++;
      continue;
    }
    const scope = d.scope.toLowerCase();
    const type = typeof d.type === 'string' ? d.type : 'ban';
    if (scope !== 'ip' && scope !== 'range') {
      out.skipped[d.scope] = (out.skipped[d.scope] || 0) + 1;
      continue;
    }
    if (type !== 'ban') {
      out.skipped['type:' + type] = (out.skipped['type:' + type] || 0) + 1;
      continue;
    }
    const ms = durationMs(d.duration);
    if (!Number.isFinite(ms)) {
      out.malformed++;
      continue;
    }
    const scenario = safe(d.scenario);
    const origin = safe(d.origin);
    if (counted && (scenario !== String(d.scenario ?? '') || origin !== String(d.origin ?? ''))) out.reduced++;
    lines.push(d.id + '\t' + clean(d.value) + '\t' + (scope === 'ip' ? 'Ip' : 'Range') +
      '\t' + scenario + '\t' + origin + '\t' + ms);
  }
  return { text: lines.join('\n'), count: lines.length };
}
parentPort.on('message', ({ seq, buffer }) => {
  try {
    const answer = JSON.parse(Buffer.from(buffer).toString('utf8'));
    if (!answer || typeof answer !== 'object' || Array.isArray(answer)) throw new Error('the answer is not a JSON object');
    const out = { skipped: {}, malformed: 0, reduced: 0 };
    const added = pack(answer.new, out, true);
    const deleted = pack(answer.deleted, out, false);
    parentPort.postMessage({ seq, ok: true, result: {
      added: added.text, deleted: deleted.text, addedCount: added.count, deletedCount: deleted.count,
      skipped: out.skipped, malformed: out.malformed, reduced: out.reduced } });
  } catch (error) {
    parentPort.postMessage({ seq, ok: false, error: error instanceof Error ? error.message : String(error) });
  }
});
`;

type Reply = { seq: number; ok: true; result: ParsedStream } | { seq: number; ok: false; error: string };

/** A long-lived parser thread for stream answers; started on first use, stopped with `close()`. */
export class StreamParser {
  private worker: Worker | undefined;
  /** Set by close(): a poll still in flight when the link stopped must not start a new thread. */
  private closed = false;
  private seq = 0;
  private readonly waiting = new Map<
    number,
    { resolve: (parsed: ParsedStream) => void; reject: (error: Error) => void }
  >();

  /** Parses one answer off the web thread; rejects with the reason when it is not a decision stream. */
  parse(body: Buffer): Promise<ParsedStream> {
    if (this.closed) return Promise.reject(new Error('the stream parser is closed (the link stopped)'));
    const worker = this.start();
    const seq = ++this.seq;
    // A copy the worker owns (the answer's buffer may be a slice of Node's shared pool), made by one
    // memcpy: `new Uint8Array(buffer)` copied element by element, ~300 ms on the web thread for 20 MB.
    const copy = new ArrayBuffer(body.byteLength);
    new Uint8Array(copy).set(body);
    return new Promise<ParsedStream>((resolve, reject) => {
      this.waiting.set(seq, { resolve, reject });
      worker.postMessage({ seq, buffer: copy }, [copy]);
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    const worker = this.worker;
    this.worker = undefined;
    if (worker) await worker.terminate();
  }

  private start(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(PARSER_SOURCE, { eval: true });
    worker.unref();
    worker.on('message', (reply: Reply) => {
      const pending = this.waiting.get(reply.seq);
      if (!pending) return;
      this.waiting.delete(reply.seq);
      if (reply.ok) pending.resolve(reply.result);
      else pending.reject(new Error(reply.error));
    });
    const failAll = (error: Error) => {
      if (this.worker === worker) this.worker = undefined;
      for (const pending of this.waiting.values()) pending.reject(error);
      this.waiting.clear();
    };
    worker.on('error', failAll);
    worker.on('exit', () => failAll(new Error('the stream parser thread stopped')));
    return (this.worker = worker);
  }
}

/** The records of a packed list, in order. */
export function* unpack(packed: string): Generator<PulledDecision> {
  if (packed === '') return;
  let start = 0;
  while (start <= packed.length) {
    let end = packed.indexOf('\n', start);
    if (end === -1) end = packed.length;
    const [id, value, scope, scenario, origin, ms] = packed.slice(start, end).split('\t');
    yield {
      id: Number(id),
      value: value!,
      scope: scope as 'Ip' | 'Range',
      scenario: scenario!,
      origin: origin!,
      durationMs: Number(ms),
    };
    start = end + 1;
  }
}
