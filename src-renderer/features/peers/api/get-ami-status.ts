import type { Answer } from '../../../../src-shared/contract/types.ts';
import { api } from '../../../lib/api-client.ts';
import { polledQuery } from '../../../lib/query-hooks.ts';

export type AmiStatus = Answer<'ami.getStatus'>;

export const amiStatusKey = ['ami', 'status'] as const;

/** ami:getStatus: whether the Asterisk manager connection is up. */
export const getAmiStatus = () => api.get<AmiStatus>('ami:getStatus');

export const useAmiStatus = polledQuery(amiStatusKey, getAmiStatus, 5_000);
