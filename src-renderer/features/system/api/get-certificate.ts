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
  /** Why a configured listener did not start (port taken, unreadable certificate). */
  error?: string | null;
}

export const certificateKey = ['system', 'certificate'] as const;

/** system:getCertificate: the HTTPS listener's self-signed certificate. */
export const getCertificate = () => api.get<CertificateInfo>('system:getCertificate', undefined, { quiet: true });

export const certificateQueryOptions = () => queryOptions({ queryKey: certificateKey, queryFn: getCertificate });

export const useCertificate = () => useQuery(certificateQueryOptions());
