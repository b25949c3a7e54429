/**
 * A request path's reply type, from the route map (./routes.ts): what the web client's
 * `api.get(path)` returns. `ReplyOf<'GET', '/api/ports/0x0002c9/1/counters?range=7d'>` is
 * `CounterHistoryReply`: a path matches a route segment by segment, a `:param` segment matching
 * any one segment, the query string aside. A path no route matches gives `never`.
 */
import type { ApiReplies, ApiRoute } from './routes.ts';

export type HttpMethod = 'GET' | 'POST';

type Split<S extends string> = S extends `${infer Head}/${infer Tail}` ? [Head, ...Split<Tail>] : [S];
type WithoutQuery<P extends string> = P extends `${infer Path}?${string}` ? Path : P;
type SegmentsMatch<Path extends string[], Route extends string[]> = Path extends [
  infer P extends string,
  ...infer PathRest extends string[],
]
  ? Route extends [infer R extends string, ...infer RouteRest extends string[]]
    ? R extends `:${string}`
      ? SegmentsMatch<PathRest, RouteRest>
      : P extends R
        ? SegmentsMatch<PathRest, RouteRest>
        : false
    : false
  : Route extends []
    ? true
    : false;
type Matches<P extends string, Route extends string> = P extends string
  ? SegmentsMatch<Split<WithoutQuery<P>>, Split<Route>>
  : never;

export type ReplyOf<M extends HttpMethod, P extends string> = {
  [K in ApiRoute]: K extends `${M} ${infer Route}` ? (true extends Matches<P, Route> ? ApiReplies[K] : never) : never;
}[ApiRoute];

/** A query string as the web app builds it: none, or `?` and parameters. */
export type QueryString = '' | `?${string}`;
