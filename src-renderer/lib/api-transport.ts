// The transport under the console's typed client (api-client.ts): adds the bearer token, unwraps the
// SPEC envelope, turns `messages.error` into notifications and a 401 into the login screen. It takes a
// path string, so only api-client.ts calls it (lint refuses it elsewhere): callers name an operation.
import { notifications } from '@mantine/notifications';
import type { Schema } from '#shared/contract/types.ts';
import { API_BASE } from '../config/paths.ts';
import { getAuthSession, refreshAccessToken, requireLogin } from './auth-session.ts';
import { markContact, markUnreachable } from './connection-state.ts';

export type Pagination = Schema<'Pagination'>;

/** The SPEC envelope every answer comes in, with `data` as the caller's accessor names it. */
type Envelope<T> = Omit<Schema<'Envelope'>, 'data'> & { data: T };

/** A failed API call: the HTTP status and the server's error messages. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly messages: string[],
  ) {
    super(messages.join(' ') || `Request failed with HTTP ${status}.`);
    this.name = 'ApiError';
  }
}

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  body?: unknown;
  query?: Record<string, string | number | undefined>;
  /** Do not show errors as notifications (the caller shows them inline). */
  quiet?: boolean;
  /** Public endpoints: never send a token, never redirect to login. */
  anonymous?: boolean;
}

function errorMessages(messages: unknown): string[] {
  if (messages && typeof messages === 'object' && !Array.isArray(messages)) {
    const list = (messages as { error?: unknown }).error;
    if (Array.isArray(list)) return list.map(String);
  }
  return [];
}

const STATUS_HINTS: Record<number, string> = {
  403: 'This account is not allowed to do that.',
  404: 'Not found: it may have been deleted in the meantime. Reload the page.',
  503: 'The server is busy. Try again in a few seconds.',
  504: 'The server took too long to answer. Try again.',
};

function url(path: string, query?: RequestOptions['query']): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {}))
    if (value !== undefined && value !== '') search.set(key, String(value));
  const qs = search.toString();
  return `${API_BASE}${path}${qs ? `?${qs}` : ''}`;
}

async function send(path: string, options: RequestOptions): Promise<Response> {
  const headers: Record<string, string> = { accept: 'application/json' };
  const token = getAuthSession().accessToken;
  if (token && !options.anonymous) headers.authorization = `Bearer ${token}`;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  return fetch(url(path, options.query), {
    method: options.method ?? 'GET',
    headers,
    credentials: 'same-origin',
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
}

/** The info and warning messages of a successful answer (what a save did besides saving, such as bans it lifted). */
export interface Notices {
  info: string[];
  warning: string[];
}

function noticesOf(messages: unknown): Notices {
  const list = (name: 'info' | 'warning') => {
    const value =
      messages && typeof messages === 'object' && !Array.isArray(messages)
        ? (messages as Record<string, unknown>)[name]
        : undefined;
    return Array.isArray(value) ? value.filter((m): m is string => typeof m === 'string') : [];
  };
  return { info: list('info'), warning: list('warning') };
}

/** Sends a request to a v3 path (relative to /pbxcore/api/v3/) and returns the envelope's data, pagination and notices. */
export async function apiRequest<T>(
  path: string,
  options: RequestOptions = {},
): Promise<{ data: T; pagination?: Pagination; notices: Notices }> {
  let response: Response;
  try {
    response = await send(path, options);
    if (
      response.status === 401 &&
      !options.anonymous &&
      getAuthSession().mode === 'signed-in' &&
      (await refreshAccessToken())
    ) {
      response = await send(path, options);
    }
  } catch {
    // No toast: the app-wide banner (components/ConnectionBanner.tsx) says it once, with the last contact.
    markUnreachable();
    throw new ApiError(0, ['The server cannot be reached. Check that PBX Console is running, then retry.']);
  }
  markContact();
  const envelope = (await response.json().catch(() => null)) as Envelope<T> | null;
  if (response.ok && envelope?.result !== false) {
    return {
      data: (envelope?.data ?? null) as T,
      pagination: envelope?.pagination,
      notices: noticesOf(envelope?.messages),
    };
  }
  const messages = errorMessages(envelope?.messages);
  const error = new ApiError(
    response.status,
    messages.length ? messages : [STATUS_HINTS[response.status] ?? `Request failed with HTTP ${response.status}.`],
  );
  if (response.status === 401 && !options.anonymous) {
    requireLogin(getAuthSession().mode === 'signed-in' ? 'Your session has ended. Sign in again.' : null);
  } else if (!options.quiet) {
    // One toast per distinct failure: polling queries that keep failing (this address banned, the
    // server busy) would otherwise stack the same message again every few seconds.
    notifications.show({
      id: `request-failed:${response.status}:${error.message}`,
      color: 'red',
      title: 'Request failed',
      message: error.message,
      autoClose: 8000,
    });
  }
  throw error;
}
