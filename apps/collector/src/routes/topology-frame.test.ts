import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import type { TopologyFrameReply, TopologyReply } from '@ibwatch/fabric';
import { edgeList, indexTopology, layoutTopology, unpackFrame, type TopoLayout } from '@ibwatch/fabric/topology-view';
import { useSeededApp } from '../test-support.ts';
import { GZIP_MIN_BYTES } from './reply-cache.ts';

// GET /api/topology/frame is the layout the page would make of GET /api/topology, at every moment.
const fx = useSeededApp();
const get = async <T>(url: string) => (await fx.app.inject(url)).json<T>();

function asData(l: TopoLayout) {
  const { edges, nodeOf: _n, ...rest } = l;
  return { ...rest, edges: edgeList(edges) };
}

async function expectSameAsPage(group: 'rail' | 'name') {
  const frame = await get<TopologyFrameReply>(`/api/topology/frame?group=${group}`);
  const reply = await get<TopologyReply>('/api/topology');
  expect(frame.groupBy).toBe(group);
  expect(frame.nodeCount).toBe(reply.nodes.guid.length);
  expect(asData(unpackFrame(frame).layout)).toEqual(asData(layoutTopology(indexTopology(reply), { groupBy: group })));
  return frame;
}

describe('GET /api/topology/frame', () => {
  it("is the page's own layout of GET /api/topology, by rail and by name", async () => {
    const rail = await expectSameAsPage('rail');
    const name = await expectSameAsPage('name');
    expect(rail.nodes.length).toBeGreaterThan(0);
    expect(rail.edges.a.length).toBeGreaterThan(0);
    expect((await fx.app.inject('/api/topology/frame')).json<TopologyFrameReply>()).toEqual(rail);
    expect(name.groupBy).toBe('name');
  });

  it("follows a link's health at once, revalidates with an ETag, gzipped only when large", async () => {
    const first = await fx.app.inject('/api/topology/frame');
    const tag = first.headers.etag as string;
    expect(first.headers['cache-control']).toBe('no-cache');
    expect((await fx.app.inject({ url: '/api/topology/frame', headers: { 'if-none-match': tag } })).statusCode).toBe(
      304,
    );
    const id = (await get<TopologyReply>('/api/topology')).links.id[0];
    const was = fx.ctx.db.prepare('SELECT health, reason FROM links WHERE id = ?').get(id) as {
      health: string;
      reason: string | null;
    };
    try {
      fx.ctx.db.prepare("UPDATE links SET health = 'down', reason = 'frame test' WHERE id = ?").run(id);
      const changed = await fx.app.inject({ url: '/api/topology/frame', headers: { 'if-none-match': tag } });
      expect(changed.statusCode).toBe(200);
      const frame = await expectSameAsPage('rail');
      const e = frame.edges.linkId.indexOf(id);
      const edge = e >= 0 ? e : frame.edges.groups.find(([, ids]) => ids.includes(id))![0];
      expect(frame.edgeHealth).toContainEqual([edge, 'down']);
      expect(frame.nodeHealth).toContainEqual([frame.edges.a[edge], 'down']);
      const gz = await fx.app.inject({ url: '/api/topology/frame', headers: { 'accept-encoding': 'gzip' } });
      // The seeded fabric's frame may be under GZIP_MIN_BYTES: then it goes as it is.
      const large = changed.rawPayload.length >= GZIP_MIN_BYTES;
      expect(gz.headers['content-encoding']).toBe(large ? 'gzip' : undefined);
      expect((large ? gunzipSync(gz.rawPayload) : gz.rawPayload).toString()).toBe(changed.body);
    } finally {
      fx.ctx.db.prepare('UPDATE links SET health = ?, reason = ? WHERE id = ?').run(was.health, was.reason, id);
    }
    expect((await get<TopologyFrameReply>('/api/topology/frame')).edgeHealth).toEqual(
      (first.json() as TopologyFrameReply).edgeHealth,
    );
  });

  it('refuses a grouping it does not know', async () => {
    const r = await fx.app.inject('/api/topology/frame?group=rack');
    expect(r.statusCode).toBe(400);
  });
});
