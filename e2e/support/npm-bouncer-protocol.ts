/** The messages between e2e/support/npm-bouncer.ts and its child, npm-bouncer-driver.ts. */

/** One HTTP request the client made and the answer it read. */
export interface WireExchange {
  method: string;
  url: string;
  status: number;
  body: string;
}

export type DriverCommand = { id: number; op: 'refresh' } | { id: number; op: 'remediation'; ip: string };

export interface DriverReply {
  id: number;
  result?: unknown;
  error?: string;
  exchanges: WireExchange[];
}
