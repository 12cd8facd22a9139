/** The services a network filter's rules drive on this server (the reference PBX's names). WEB is the `http` ban category. */
export const SERVICE_CATEGORIES = ['SIP', 'WEB', 'AMI', 'IAX'] as const;
export type ServiceCategory = (typeof SERVICE_CATEGORIES)[number];

/** Automatic-ban categories (SPEC scenario `pbx/<category>`). */
export const BAN_CATEGORIES = ['sip', 'http', 'ami', 'iax'] as const;
export type BanCategory = (typeof BAN_CATEGORIES)[number];

/** What a ban row is: an automatic-ban category, or `manual` (the operator's ban, scenario `pbx/manual`). */
export const BAN_KINDS = [...BAN_CATEGORIES, 'manual'] as const;
export type BanKind = (typeof BAN_KINDS)[number];
