import type { LinkHealth } from '@ibwatch/fabric';
import { healthLook } from '../../lib/status.ts';
import { LINK_STYLES } from './draw.ts';

const ORDER: LinkHealth[] = ['ok', 'degraded', 'errors', 'down'];

/** Line samples drawn with the same width and dash as the canvas, plus icon and words. */
export function Legend() {
  return (
    <div className="topo-legend" data-testid="topology-legend">
      <ul aria-label="Link health legend">
        {ORDER.map((h) => {
          const st = LINK_STYLES[h];
          return (
            <li key={h} className={`tone-${healthLook[h].tone}`}>
              <svg width="40" height="10" aria-hidden="true">
                <line
                  x1="0"
                  y1="5"
                  x2="40"
                  y2="5"
                  stroke={`var(${st.colourVar})`}
                  strokeWidth={st.width}
                  strokeDasharray={st.dash.join(' ') || undefined}
                />
              </svg>
              <span>
                {healthLook[h].icon} {healthLook[h].label}
              </span>
            </li>
          );
        })}
        <li className="muted">▭ N HCAs = HCAs of one leaf (zoom in to expand)</li>
        <li className="muted">
          <span className="legend-swatch swatch-aggregation" aria-hidden="true" /> AN = the SHARP Aggregation Node
          inside the switch beside it
        </li>
        <li className="muted">NO TIER row = nodes no HCA reaches (isolated switches, routers)</li>
      </ul>
    </div>
  );
}
