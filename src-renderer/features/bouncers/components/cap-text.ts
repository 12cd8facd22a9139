import type { BouncerStatus } from '../api/get-bouncer-status.ts';

/** How many of this PBX's own bans (intrusion and manual) a capped key left out at its last answer. */
export const ownLeftOut = (bouncer: Pick<BouncerStatus, 'cap'>) =>
  bouncer.cap ? bouncer.cap.leftOut.intrusion + bouncer.cap.leftOut.manual : 0;
