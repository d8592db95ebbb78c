/** The support inbox every static page points to; one place to change it. */
export const SUPPORT_EMAIL = 'support@fifty.local';

/** SPEC §9: support replies within 24 hours. */
export const SUPPORT_REPLY_HOURS = 24;
