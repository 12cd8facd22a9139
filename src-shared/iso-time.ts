import { z } from 'zod';

/** An ISO 8601 time as the server writes it. */
export const isoTime = z.string().describe('ISO 8601 time (UTC).');
