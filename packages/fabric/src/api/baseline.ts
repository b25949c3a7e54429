/** `GET /api/baseline/validation`: the topology validation report. Part of the HTTP API contract (see ../api.ts). */
import { Int, Ms, Nullable, type Static, Str, Text, Type } from './kit.ts';
import { NamedPortSchema } from './common.ts';
import { LinkSpeedSchema, LinkWidthSchema } from './vocab.ts';

export const VALIDATION_KINDS = ['missing-link', 'extra-link', 'moved-cable', 'wrong-rail', 'degraded'] as const;

export const ValidationEndSchema = NamedPortSchema;
export type ValidationEnd = Static<typeof ValidationEndSchema>;

export const ValidationLinkSchema = Type.Object({
  a: ValidationEndSchema,
  b: ValidationEndSchema,
  width: Nullable(LinkWidthSchema),
  speed: Nullable(LinkSpeedSchema),
});
export type ValidationLink = Static<typeof ValidationLinkSchema>;

export const ValidationReportRowSchema = Type.Object({
  kind: Str(VALIDATION_KINDS),
  /** The link as built; null for an extra link. */
  asBuilt: Nullable(ValidationLinkSchema),
  /** The link now; null for a missing link. */
  now: Nullable(ValidationLinkSchema),
  detail: Text(),
});
export type ValidationReportRow = Static<typeof ValidationReportRowSchema>;

export const BaselineValidationReplySchema = Type.Object({
  /** The as-built in force; null when none was set (then `rows` is empty). */
  baseline: Nullable(Type.Object({ setAt: Ms(), source: Text(), links: Int() })),
  /** Links present now. */
  linksNow: Int(),
  checkedAt: Ms(),
  /** Rows per kind (every kind listed, 0 when none). */
  counts: Type.Object(
    Object.fromEntries(VALIDATION_KINDS.map((k) => [k, Int()])) as Record<
      (typeof VALIDATION_KINDS)[number],
      ReturnType<typeof Int>
    >,
  ),
  /** Worst first: wrong rail, moved, missing, degraded, extra. */
  rows: Type.Array(ValidationReportRowSchema),
});
export type BaselineValidationReply = Static<typeof BaselineValidationReplySchema>;
