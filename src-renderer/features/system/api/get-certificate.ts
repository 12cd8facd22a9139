import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

export interface CertificateInfo {
  enabled: boolean;
  port: number | null;
  fingerprint256: string | null;
  /** The certificate in PEM, for bouncers to pin (when the server gives it). */
  pem?: string | null;
  subject: string | null;
  validTo: string | null;
  source?: 'self-signed' | 'configured' | null;
  /** Why the last change was not applied (port taken, unreadable certificate); the listener kept its previous state. */
  error?: string | null;
  /** True from a save or renewal until the server has applied it (a second or less). */
  pending?: boolean;
}

export const certificateKey = ['system', 'certificate'] as const;

/** system:getCertificate: the HTTPS listener as it runs now, and its certificate. */
export const getCertificate = () => api.get<CertificateInfo>('system:getCertificate', undefined, { quiet: true });

/** Polled quickly while a change is being applied, so the console shows when it is live. */
export const certificateQueryOptions = () =>
  queryOptions({
    queryKey: certificateKey,
    queryFn: getCertificate,
    refetchInterval: (query) => (query.state.data?.pending ? 500 : false),
  });

export const useCertificate = () => useQuery(certificateQueryOptions());
