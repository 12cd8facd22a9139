import { queryOptions, useQuery } from '@tanstack/react-query';
import { callOperation } from '../../../lib/api-client.ts';

export const certificateKey = ['system', 'certificate'] as const;

/** system:getCertificate: the HTTPS listener as it runs now, and its certificate. */
export const getCertificate = () => callOperation('system.getCertificate', { quiet: true });

/** Polled quickly while a change is being applied, so the console shows when it is live. */
export const certificateQueryOptions = () =>
  queryOptions({
    queryKey: certificateKey,
    queryFn: getCertificate,
    refetchInterval: (query) => (query.state.data?.pending ? 500 : false),
  });

export const useCertificate = () => useQuery(certificateQueryOptions());
