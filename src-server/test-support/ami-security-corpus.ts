/**
 * A golden corpus of AMI security events, in the bytes Asterisk writes, each with what the ban
 * component must make of it.
 *
 * Where the shapes come from (asterisk/asterisk, read through the code index; no local mirror):
 * - The frame: manager.c writes `Event: <name>`, `Privilege: security,all`, then the body that
 *   main/security_events.c `security_event_to_ami_blob` builds: the event's `required_ies` then its
 *   `optional_ies` in the order of `sec_events[]` (EventTV, Severity, Service, EventVersion,
 *   AccountID, SessionID, LocalAddress, RemoteAddress, the event's own fields; then Module, ...,
 *   SessionTV), each `Key: Value\r\n`; the names and versions are those of `sec_events[]`
 *   (15 types, include/asterisk/security_events_defs.h; InvalidPassword and UnexpectedAddress are
 *   at version 2). RequestBadFormat has AccountID among its optional fields, after SessionTV.
 * - Addresses: `IPV4|IPV6/<UDP|TCP|TLS|WS|WSS>/<address>/<port>` (security_events.c
 *   `add_ip_json_object`); netsock2 prints IPv6 in brackets and an IPv4-mapped source either as
 *   `[::ffff:a.b.c.d]` or, unwrapped, as `a.b.c.d` after `IPV6/` (both are here).
 * - PJSIP: res/res_pjsip/security_events.c (InvalidAccountID, FailedACL with `<unknown>` for the
 *   artificial endpoint, ChallengeResponseFailed, SuccessfulAuth, ChallengeSent,
 *   RequestNotSupported, MemoryLimit; the SessionID is the Call-ID; every transport incl. WS/WSS).
 * - SIP: channels/sip/security_events.c (chan_sip: InvalidAccountID, FailedACL, InvalidPassword,
 *   ChallengeResponseFailed, SuccessfulAuth, ChallengeSent, InvalidTransport, SessionLimit).
 * - AMI: main/manager.c (InvalidAccountID, InvalidPassword, ChallengeResponseFailed, FailedACL,
 *   SessionLimit, RequestNotAllowed, AuthMethodNotAllowed, RequestBadFormat, SuccessfulAuth,
 *   ChallengeSent; SessionID a pointer such as `0x7f2c3c001e20`, SessionTV set), over TCP, TLS
 *   and HTTP (port 8088, manager over HTTP).
 * - IAX2 and HTTP: the index shows no upstream module reporting `Service: IAX2` or `Service: HTTP`;
 *   their samples use the common field list above (IAX2 builds that report, and Asterisk's HTTP
 *   server, which this console bans in the `ami` category: both manage Asterisk).
 * - Not counted, on purpose: the informational ChallengeSent and SuccessfulAuth, Asterisk's own
 *   limits (SessionLimit, MemoryLimit, LoadAverageLimit), RequestNotSupported/NotAllowed,
 *   AuthMethodNotAllowed, UnexpectedAddress and InvalidTransport (a misconfigured phone), and
 *   `Service: TEST` (tests/test_security_events.c). fail2ban's Asterisk filter counts the four
 *   failures; RequestBadFormat is counted too (scanners cause it).
 */

export type CorpusExpectation =
  | { counted: true; category: 'sip' | 'iax' | 'ami'; address: string; account: string | null }
  | { counted: false; malformed?: boolean };

export interface CorpusSample {
  /** Which Asterisk source writes this shape. */
  source: string;
  /** The bytes on the AMI link, blank-line terminated. */
  wire: string;
  expected: CorpusExpectation;
  /** Every address the sample names (for "nothing else was banned"). */
  address: string;
}

const EVENT_TV = '2026-11-27T21:14:03.512+0000';
const INFO = new Set(['SuccessfulAuth', 'ChallengeSent']);
const VERSION_2 = new Set(['InvalidPassword', 'UnexpectedAddress']);

/** The fields each event adds after RemoteAddress (required) and after Module (optional). */
const OWN_FIELDS: Record<string, Array<[string, string]>> = {
  FailedACL: [],
  InvalidAccountID: [],
  SessionLimit: [],
  MemoryLimit: [],
  LoadAverageLimit: [],
  RequestNotSupported: [['RequestType', 'SUBSCRIBE']],
  RequestNotAllowed: [['RequestType', 'Action: Originate']],
  AuthMethodNotAllowed: [['AuthMethod', 'plaintext']],
  RequestBadFormat: [['RequestType', 'NULL']],
  SuccessfulAuth: [['UsingPassword', '1']],
  UnexpectedAddress: [['ExpectedAddress', 'IPV4/UDP/192.0.2.10/4569']],
  ChallengeResponseFailed: [
    ['Challenge', '5f3a1c2b'],
    ['ReceivedChallenge', '5f3a1c2b'],
    ['ReceivedHash', '8a0f3e55c1d9b0a7e2f64c1d9b0a7e2f'],
  ],
  InvalidPassword: [
    ['Challenge', '5f3a1c2b'],
    ['ReceivedChallenge', '5f3a1c2b'],
    ['ReceivedHash', 'e2f64c1d9b0a7e2f8a0f3e55c1d9b0a7'],
  ],
  ChallengeSent: [['Challenge', '1f4e8a7c']],
  InvalidTransport: [['AttemptedTransport', 'TCP']],
};

interface EventShape {
  service: string;
  account?: string;
  session: string;
  local: string;
  remote: string;
  module?: string;
  sessionTv?: boolean;
  aclName?: string;
  /** Fields replaced or removed (malformed samples). */
  override?: Record<string, string | null>;
}

/** The wire text of one event, in the field order security_event_to_ami_blob writes. */
export function securityEventWire(name: string, shape: EventShape): string {
  const fields: Array<[string, string]> = [
    ['Event', name],
    ['Privilege', 'security,all'],
    ['EventTV', EVENT_TV],
    ['Severity', INFO.has(name) ? 'Informational' : 'Error'],
    ['Service', shape.service],
    ['EventVersion', VERSION_2.has(name) ? '2' : '1'],
  ];
  if (name !== 'RequestBadFormat' && shape.account !== undefined) fields.push(['AccountID', shape.account]);
  fields.push(['SessionID', shape.session], ['LocalAddress', shape.local], ['RemoteAddress', shape.remote]);
  fields.push(...(OWN_FIELDS[name] ?? []));
  if (shape.module) fields.push(['Module', shape.module]);
  if (shape.aclName) fields.push(['ACLName', shape.aclName]);
  if (shape.sessionTv) fields.push(['SessionTV', '2026-11-27T21:13:58.004+0000']);
  if (name === 'RequestBadFormat' && shape.account !== undefined) fields.push(['AccountID', shape.account]);
  const out = new Map(fields);
  for (const [key, value] of Object.entries(shape.override ?? {})) {
    if (value === null) out.delete(key);
    else out.set(key, value);
  }
  return `${[...out].map(([k, v]) => `${k}: ${v}\r\n`).join('')}\r\n`;
}

type Family = 'v4' | 'v6' | 'mapped' | 'mapped-bare';

/** Addresses handed out in order: every sample has its own, so one wrong outcome cannot hide behind another. */
class Addresses {
  private n = 0;
  constructor(
    private readonly v4: string,
    private readonly v6: string,
  ) {}
  next(family: Family, transport: string, port: number): { remote: string; address: string } {
    this.n++;
    const v4 = `${this.v4}.${this.n}`;
    if (family === 'v4') return { remote: `IPV4/${transport}/${v4}/${port}`, address: v4 };
    if (family === 'mapped') return { remote: `IPV6/${transport}/[::ffff:${v4}]/${port}`, address: v4 };
    if (family === 'mapped-bare') return { remote: `IPV6/${transport}/${v4}/${port}`, address: v4 };
    const v6 = `${this.v6}::${this.n.toString(16)}`;
    return { remote: `IPV6/${transport}/[${v6}]/${port}`, address: v6 };
  }
}

const countedAddresses = new Addresses('203.0.113', '2001:db8:c');
const otherAddresses = new Addresses('198.51.100', '2001:db8:d');

const SIP_REMOTES: Array<[Family, string, number]> = [
  ['v4', 'UDP', 5060],
  ['v4', 'TCP', 5060],
  ['v4', 'TLS', 5061],
  ['v4', 'WS', 8088],
  ['v4', 'WSS', 8089],
  ['v6', 'UDP', 5060],
  ['v6', 'TCP', 5060],
  ['v6', 'TLS', 5061],
  ['mapped', 'UDP', 5060],
  ['mapped-bare', 'TCP', 5060],
];
const CHAN_SIP_REMOTES = SIP_REMOTES.filter(([, transport]) => !transport.startsWith('WS')).slice(0, 6);
const AMI_REMOTES: Array<[Family, string, number]> = [
  ['v4', 'TCP', 5038],
  ['v4', 'TLS', 5039],
  ['v6', 'TCP', 5038],
  ['mapped', 'TCP', 5038],
];
const HTTP_REMOTES: Array<[Family, string, number]> = [
  ['v4', 'TCP', 8088],
  ['v6', 'TLS', 8089],
  ['mapped', 'TCP', 8088],
];
const IAX_REMOTES: Array<[Family, string, number]> = [
  ['v4', 'UDP', 4569],
  ['v6', 'UDP', 4569],
  ['mapped', 'UDP', 4569],
];

const localOf = (remote: string) =>
  remote.startsWith('IPV6')
    ? remote.replace(/\/[^/]+\/(\d+)$/, '/[2001:db8:ff::5]/$1')
    : remote.replace(/\/[^/]+\/(\d+)$/, '/192.0.2.5/$1');

const CATEGORY: Record<string, 'sip' | 'iax' | 'ami'> = {
  PJSIP: 'sip',
  SIP: 'sip',
  IAX2: 'iax',
  AMI: 'ami',
  HTTP: 'ami',
};

interface ServiceRow {
  service: string;
  source: string;
  failures: string[];
  others: string[];
  remotes: Array<[Family, string, number]>;
  session: (i: number) => string;
  account: (name: string, i: number) => string | undefined;
  module?: string;
  sessionTv?: boolean;
}

const ROWS: ServiceRow[] = [
  {
    service: 'PJSIP',
    source: 'res/res_pjsip/security_events.c',
    failures: ['InvalidAccountID', 'FailedACL', 'ChallengeResponseFailed'],
    others: ['SuccessfulAuth', 'ChallengeSent', 'RequestNotSupported', 'MemoryLimit'],
    remotes: SIP_REMOTES,
    session: (i) => `4b1c9e0a-${1000 + i}@192.0.2.5`,
    account: (name, i) =>
      name === 'FailedACL' && i % 2 ? '<unknown>' : name === 'InvalidAccountID' ? `admin${i}` : '100',
  },
  {
    service: 'SIP',
    source: 'channels/sip/security_events.c',
    failures: ['InvalidAccountID', 'FailedACL', 'InvalidPassword', 'ChallengeResponseFailed'],
    others: ['SuccessfulAuth', 'ChallengeSent', 'InvalidTransport', 'SessionLimit'],
    remotes: CHAN_SIP_REMOTES,
    session: (i) => `3c2a7f10${i}@203.0.113.254`,
    account: (name, i) => (name === 'InvalidAccountID' ? `${9000 + i}` : '101'),
    module: 'chan_sip.c',
  },
  {
    service: 'AMI',
    source: 'main/manager.c',
    failures: ['InvalidAccountID', 'InvalidPassword', 'ChallengeResponseFailed', 'FailedACL', 'RequestBadFormat'],
    others: ['SessionLimit', 'RequestNotAllowed', 'AuthMethodNotAllowed', 'SuccessfulAuth', 'ChallengeSent'],
    remotes: AMI_REMOTES,
    session: (i) => `0x7f2c3c00${(0x1e20 + i).toString(16)}`,
    account: (name) => (name === 'RequestBadFormat' ? undefined : 'admin'),
    sessionTv: true,
  },
  {
    service: 'HTTP',
    source: 'common field list (main/security_events.c); Asterisk HTTP server, port 8088',
    failures: ['InvalidAccountID', 'InvalidPassword'],
    others: ['SuccessfulAuth'],
    remotes: HTTP_REMOTES,
    session: (i) => `0x5581c2d0${i}`,
    account: () => 'ari-user',
  },
  {
    service: 'IAX2',
    source: 'common field list (main/security_events.c); IAX2 service name',
    failures: ['InvalidAccountID', 'InvalidPassword', 'ChallengeResponseFailed', 'FailedACL'],
    others: ['UnexpectedAddress', 'SuccessfulAuth'],
    remotes: IAX_REMOTES,
    session: (i) => `IAX2/203.0.113.254:4569-${i}`,
    account: () => 'trunk-east',
  },
];

function build(): CorpusSample[] {
  const samples: CorpusSample[] = [];
  let i = 0;
  for (const row of ROWS) {
    for (const name of [...row.failures, ...row.others]) {
      const counted = row.failures.includes(name);
      // Every failure over every transport and family; the other events over the first two.
      const remotes = counted ? row.remotes : row.remotes.slice(0, 2);
      for (const [family, transport, port] of remotes) {
        i++;
        const { remote, address } = (counted ? countedAddresses : otherAddresses).next(family, transport, port);
        const account = row.account(name, i);
        samples.push({
          source: `${row.source}: ${name} over ${transport}/${family}`,
          wire: securityEventWire(name, {
            service: row.service,
            account,
            session: row.session(i),
            local: localOf(remote),
            remote,
            module: row.module,
            sessionTv: row.sessionTv,
            aclName: name === 'FailedACL' ? 'deny-all' : undefined,
          }),
          expected: counted
            ? { counted: true, category: CATEGORY[row.service]!, address, account: account ?? null }
            : { counted: false },
          address,
        });
      }
    }
  }
  return samples;
}

/** Failures Asterisk would never write: missing or broken fields; each must be dropped. */
function malformed(): CorpusSample[] {
  const bad = (source: string, name: string, override: Record<string, string | null>, service = 'PJSIP') => {
    const { remote, address } = otherAddresses.next('v4', 'UDP', 5060);
    return {
      source: `malformed: ${source}`,
      wire: securityEventWire(name, {
        service,
        account: '100',
        session: 'x@y',
        local: 'IPV4/UDP/192.0.2.5/5060',
        remote,
        override,
      }),
      expected: { counted: false, malformed: true } as const,
      address,
    };
  };
  return [
    bad('no RemoteAddress', 'InvalidPassword', { RemoteAddress: null }),
    bad('no Service', 'ChallengeResponseFailed', { Service: null }),
    bad('address not an address', 'InvalidAccountID', { RemoteAddress: 'IPV4/UDP/not-an-ip/5060' }),
    bad('octet out of range', 'FailedACL', { RemoteAddress: 'IPV4/UDP/203.0.113.300/5060' }),
    bad('port not a number', 'InvalidPassword', { RemoteAddress: 'IPV4/UDP/203.0.113.200/sip' }),
    bad('family unknown', 'InvalidPassword', { RemoteAddress: 'IPX/UDP/203.0.113.201/5060' }),
    bad('scoped IPv6', 'InvalidAccountID', { RemoteAddress: 'IPV6/UDP/[fe80::1%eth0]/5060' }),
    bad('AccountID of 2000 characters', 'InvalidAccountID', { AccountID: 'a'.repeat(2000) }),
  ];
}

/** Not failures, not malformed: services this console does not ban for. */
function unwatched(): CorpusSample[] {
  const { remote, address } = otherAddresses.next('v4', 'UDP', 5060);
  const load = otherAddresses.next('v4', 'TCP', 5038);
  return [
    {
      source: 'main/security_events.c sec_events[]: LoadAverageLimit (no emitter found in the index)',
      wire: securityEventWire('LoadAverageLimit', {
        service: 'AMI',
        account: 'admin',
        session: '0x7f2c3c009000',
        local: 'IPV4/TCP/192.0.2.5/5038',
        remote: load.remote,
        sessionTv: true,
      }),
      expected: { counted: false },
      address: load.address,
    },
    {
      source: 'tests/test_security_events.c: Service TEST',
      wire: securityEventWire('FailedACL', {
        service: 'TEST',
        account: 'Username',
        session: 'Session123',
        local: 'IPV4/UDP/192.0.2.5/5060',
        remote,
        module: 'test_security_events',
        aclName: 'TEST_ACL',
      }),
      expected: { counted: false },
      address,
    },
  ];
}

export const AMI_SECURITY_CORPUS: readonly CorpusSample[] = [...build(), ...malformed(), ...unwatched()];
