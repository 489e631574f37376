/** The partner apps' routes (spec shell §7.7 emr/partner_apps), kept apart so the handler names them without loading their schemas. */
export const PARTNER_APP_ROUTE_KEYS = ['GET /v1/practices/partner-apps', 'PUT /v1/practices/partner-apps'] as const;
