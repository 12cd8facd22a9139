import assert from 'node:assert/strict';
import { after, before } from 'node:test';
import { fileURLToPath } from 'node:url';
import { createServer, type CreateServerOptions, type PbxServer } from '../index.ts';
import { request, type TestRequestOptions, type TestResponse } from './http.ts';
import { makeTempDir, removeTempDir } from './temp-db.ts';

export const REMOTE = '127.0.0.2';
export const DIAGNOSTICS_MODULE = fileURLToPath(new URL('./diagnostics-resource.ts', import.meta.url));

export interface TestServer {
  server: PbxServer;
  url: string;
  dataDir: string;
  /** Request a path on this server (from 127.0.0.1 unless localAddress says otherwise). */
  call(path: string, options?: TestRequestOptions): Promise<TestResponse>;
  /** POST `body` (sent as JSON) to a path on this server. */
  post(path: string, body: unknown, options?: TestRequestOptions): Promise<TestResponse>;
  /** Same request from 127.0.0.2: a remote client for the localhost bypass. */
  remote(path: string, options?: TestRequestOptions): Promise<TestResponse>;
  restart(): Promise<void>;
  close(): Promise<void>;
}

/** Starts a real server on an ephemeral loopback port with a fresh data directory. */
export async function startTestServer(
  options: CreateServerOptions & { keepDataDir?: string } = {},
): Promise<TestServer> {
  const { keepDataDir, ...rest } = options;
  const dataDir = keepDataDir ?? makeTempDir('pbx-test-');
  const make = () =>
    createServer({
      host: '127.0.0.1',
      port: 0,
      dataDir,
      logLevel: (process.env.PBX_TEST_LOG as 'silent') ?? 'silent',
      // One idle thread, not the product's two: the suite starts hundreds of short-lived servers, and each thread
      // loads every module through tsx (the second made the server tests 36 % more CPU). Tests of the pool set it.
      workerIdleThreads: 1,
      // Every answer of a custom method is checked against its declared output: a mismatch is a 500.
      checkOutputs: true,
      ...rest,
    });
  let server = make();
  await server.start();
  const handle: TestServer = {
    get server() {
      return server;
    },
    get url() {
      return server.url;
    },
    dataDir,
    call: (path, o) => request(`${server.url}${path}`, o),
    post: (path, body, o) => request(`${server.url}${path}`, { ...o, method: 'POST', body }),
    remote: (path, o) => request(`${server.url}${path}`, { localAddress: REMOTE, ...o }),
    async restart() {
      const port = server.port;
      await server.stop();
      server = createServer({
        host: '127.0.0.1',
        port,
        dataDir,
        logLevel: (process.env.PBX_TEST_LOG as 'silent') ?? 'silent',
        checkOutputs: true,
        ...rest,
      });
      await server.start();
    },
    async close() {
      await server.stop();
      if (!keepDataDir) removeTempDir(dataDir);
    },
  };
  return handle;
}

/** Runs `run` with a fresh test server and closes it afterwards, also when `run` throws. */
export async function withTestServer<T>(
  options: Parameters<typeof startTestServer>[0],
  run: (t: TestServer) => Promise<T>,
): Promise<T> {
  const t = await startTestServer(options);
  try {
    return await run(t);
  } finally {
    await t.close();
  }
}

/**
 * A test server for the current suite: started in its `before` hook, closed in its `after` hook. The handle
 * reads through to the running server, so it can be declared where the suite's tests can see it.
 */
export function useTestServer(options: Parameters<typeof startTestServer>[0] = {}): TestServer {
  let started: TestServer | undefined;
  before(async () => {
    started = await startTestServer(options);
  });
  after(() => started?.close());
  const running = () => started ?? assert.fail("the test server starts in the suite's before hook");
  return {
    get server() {
      return running().server;
    },
    get url() {
      return running().url;
    },
    get dataDir() {
      return running().dataDir;
    },
    call: (path, o) => running().call(path, o),
    post: (path, body, o) => running().post(path, body, o),
    remote: (path, o) => running().remote(path, o),
    restart: () => running().restart(),
    close: () => running().close(),
  };
}
