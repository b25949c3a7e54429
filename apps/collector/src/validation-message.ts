import type { FastifySchemaValidationError } from 'fastify';

/**
 * Fastify's 400 message for a request that fails its schema, naming an unknown field: ajv says
 * only `body must NOT have additional properties`, which leaves a job script guessing which of
 * its fields is the typo. Every other error reads as Fastify's own (`body/labels/nodes must be
 * integer`).
 */
export const schemaErrorMessage = (errors: FastifySchemaValidationError[], dataVar: string): Error =>
  new Error(
    errors
      .map((e) => {
        const at = `${dataVar}${e.instancePath || ''}`;
        const field = e.params?.additionalProperty;
        return e.keyword === 'additionalProperties' && typeof field === 'string'
          ? `${at} has an unknown field "${field}"`
          : `${at} ${e.message ?? 'is invalid'}`;
      })
      .join(', '),
  );
