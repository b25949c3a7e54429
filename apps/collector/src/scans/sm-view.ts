/**
 * TEMPORARY (issue 16): routes/metrics.ts still imports smState from here; the SM views moved to
 * queries/sm-view.ts. Remove this file when metrics.ts imports from queries/ (at the merge).
 */
export { smState } from '../queries/sm-view.ts';
