import { Ajv, type ValidateFunction } from 'ajv';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/**
 * Fastify serialises a reply through its route's response schema (fast-json-stringify), which
 * silently drops a property the schema does not name and coerces a value of the wrong type
 * (an integer field truncates 1.5, a string field turns null into ""). So that a field added to
 * a reply but not to its schema (packages/fabric/src/api) never vanishes unnoticed, this checks
 * the handler's own value, before serialisation, against a strict copy of the 2xx schema
 * (`additionalProperties: false` on every object) and fails the request on any difference.
 * Replies sent pre-serialised (the cached ones: a Buffer of JSON) are parsed and checked too.
 *
 * It costs a full validation per reply: on in tests (IBWATCH_CHECK_REPLIES, set by the test
 * config), off in production, where the schemas only serialise and document.
 */
export function checkReplies(app: FastifyInstance, onViolation: (message: string) => void = () => {}): void {
  const schemas = new Map<string, object>();
  const key = (method: string, url: string) => `${method} ${url}`;

  app.addHook('onRoute', (route) => {
    const response = (route.schema as { response?: Record<string, unknown> } | undefined)?.response;
    const json = response?.['2xx'] ?? response?.['200'] ?? response?.['201'];
    if (!json || typeof json !== 'object' || 'content' in json) return;
    for (const method of [route.method].flat()) schemas.set(key(method, route.url), json);
  });

  const check = (req: FastifyRequest, reply: FastifyReply, value: unknown): void => {
    if (reply.statusCode < 200 || reply.statusCode > 299) return;
    const schema = schemas.get(key(req.method, req.routeOptions.url ?? ''));
    if (!schema) return;
    const validate = validatorOf(schema);
    if (validate(value)) return;
    const detail = (validate.errors ?? [])
      .slice(0, 5)
      .map((e) => {
        const extra = (e.params as { additionalProperty?: string }).additionalProperty;
        return `reply${e.instancePath} ${e.message}${extra ? `: ${extra}` : ''}`;
      })
      .join('; ');
    const message = `reply of ${req.method} ${req.routeOptions.url} does not match its schema: ${detail}`;
    onViolation(message);
    throw new Error(message);
  };

  app.addHook('preSerialization', async (req, reply, payload) => {
    check(req, reply, payload);
    return payload;
  });
  app.addHook('onSend', async (req, reply, payload) => {
    // Only JSON the handler serialised itself; fastify's own serialisation was checked above.
    if (!Buffer.isBuffer(payload) || reply.getHeader('content-encoding')) return payload;
    if (!String(reply.getHeader('content-type') ?? '').startsWith('application/json')) return payload;
    check(req, reply, JSON.parse(payload.toString('utf8')));
    return payload;
  });
}

const ajv = new Ajv({ strict: false, allErrors: true });
/**
 * Compiled on first use and kept per schema object (the contract's schemas are module constants):
 * tests build many apps, and compiling every route's validator for each cost seconds.
 */
const validators = new WeakMap<object, ValidateFunction>();
function validatorOf(schema: object): ValidateFunction {
  let v = validators.get(schema);
  if (!v) validators.set(schema, (v = ajv.compile(strict(schema) as object)));
  return v;
}

/** A copy of `schema` in which no object may carry a property its schema does not name. */
export function strict(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(strict);
  if (!schema || typeof schema !== 'object') return schema;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(schema)) out[k] = strict(v);
  if (out.properties && out.additionalProperties === undefined && out.patternProperties === undefined)
    out.additionalProperties = false;
  return out;
}
