/**
 * Child process that runs the npm bouncer (`@crowdsec/nodejs-bouncer`) for e2e/npm-bouncer.test.ts.
 * It runs in its own process because the client logs through a module-level pino logger on stdout
 * (level from LOG_LEVEL, read at import): the parent reads those lines to catch every warning.
 * Commands arrive over the IPC channel; every HTTP answer the client read is sent back with them.
 */
import { CrowdSecBouncer, type CrowdSecBouncerConfigurations } from '@crowdsec/nodejs-bouncer';
import type { DriverCommand, DriverReply, WireExchange } from './npm-bouncer-protocol.ts';

const exchanges: WireExchange[] = [];
const realFetch = globalThis.fetch;

// The client calls the global fetch: record what came over the wire, and hand it the real response.
globalThis.fetch = async (input, init) => {
  const response = await realFetch(input, init);
  const method = init?.method ?? 'GET';
  const body = method === 'HEAD' ? '' : await response.clone().text();
  exchanges.push({ method, url: String(input), status: response.status, body });
  return response;
};

const config = JSON.parse(process.env.NPM_BOUNCER_CONFIG ?? '{}') as CrowdSecBouncerConfigurations;
const bouncer = new CrowdSecBouncer(config);

async function run(command: DriverCommand): Promise<unknown> {
  switch (command.op) {
    case 'refresh':
      return bouncer.refreshDecisions();
    case 'remediation':
      return bouncer.getIpRemediation(command.ip);
  }
}

process.on('message', (message: DriverCommand) => {
  void run(message).then(
    (result) => reply({ id: message.id, result, exchanges: exchanges.splice(0) }),
    (error: unknown) =>
      reply({
        id: message.id,
        error: error instanceof Error ? error.message : String(error),
        exchanges: exchanges.splice(0),
      }),
  );
});

function reply(message: DriverReply): void {
  process.send?.(message);
}

reply({ id: 0, result: 'ready', exchanges: [] });
