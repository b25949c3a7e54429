/**
 * The topology view's model and layout, shared by the page (apps/web) and the collector, which
 * lays out the view's first frame once per topology (frame.ts). Pure: no DOM, no I/O.
 */
export * from './model.ts';
export * from './layout.ts';
export * from './labels.ts';
export * from './frame.ts';
