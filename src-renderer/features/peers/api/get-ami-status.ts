import { callOperation } from '../../../lib/api-client.ts';
import { polledQuery } from '../../../lib/query-hooks.ts';

export const amiStatusKey = ['ami', 'status'] as const;

/** ami:getStatus: whether the Asterisk manager connection is up. */
export const getAmiStatus = () => callOperation('ami.getStatus');

export const useAmiStatus = polledQuery(amiStatusKey, getAmiStatus, 5_000);
