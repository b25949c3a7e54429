/** The collector's version: the OpenAPI document, /api/health and the fleet summary report it. */
export const VERSION = '0.1.0';
