import { IconPlugConnectedX } from '@tabler/icons-react';
import { useEffect } from 'react';
import { requestOperation } from '../lib/api-client.ts';
import { getConnectionState, onReconnect, useConnectionState } from '../lib/connection-state.ts';
import { formatAgo, formatTime } from '../lib/format.ts';
import { queryClient } from '../lib/query-client.ts';
import { useNow } from '../lib/use-now.ts';
import { ProblemAlert } from './ProblemAlert.tsx';

/** Without other traffic, the console checks the server this often, and more often while it is away. */
const HEARTBEAT_MS = 5_000;
const RETRY_MS = 3_000;

/**
 * Keeps the connection state true on pages that do not poll: a quiet `auth:status` when nothing
 * else reached the server lately. When the server answers again, every query refreshes.
 */
function useConnectionHeartbeat(): void {
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout>;
    const beat = () => {
      const { reachable, lastContact } = getConnectionState();
      const due = !reachable || lastContact === null || Date.now() - lastContact >= HEARTBEAT_MS;
      const next = () => (timer = setTimeout(beat, getConnectionState().reachable ? HEARTBEAT_MS : RETRY_MS));
      if (due && document.visibilityState === 'visible')
        void requestOperation('auth.status', { anonymous: true, quiet: true }).then(next, next);
      else next();
    };
    timer = setTimeout(beat, HEARTBEAT_MS);
    const stopRefresh = onReconnect(() => void queryClient.invalidateQueries());
    return () => {
      clearTimeout(timer);
      stopRefresh();
    };
  }, []);
}

/** The one place the console says the server is unreachable: when it last answered, and that the page is stale. */
export function ConnectionBanner() {
  useConnectionHeartbeat();
  const connection = useConnectionState();
  const now = useNow(connection.reachable ? 60_000 : 1000);
  if (connection.reachable) return null;
  return (
    <ProblemAlert
      icon={<IconPlugConnectedX size={20} />}
      title="The server cannot be reached"
      mb="md"
      role="status"
      data-testid="connection-banner"
    >
      {connection.lastContact
        ? `Last contact at ${formatTime(connection.lastContact)} (${formatAgo(connection.lastContact, now)}). `
        : 'The server has not answered since this page opened. '}
      What this page shows is from then and may be out of date. It refreshes by itself once the server answers; check
      that PBX Console is running.
    </ProblemAlert>
  );
}
