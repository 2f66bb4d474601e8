import { describe, expect, it } from 'vitest';
import type { ProjectDetail, SegmentRecord } from '../../electron/shared/projects';
import { withSegment, withSegmentStates } from '../../renderer/src/stores/projects-slice';

const segment = (id: string, state: SegmentRecord['state']): SegmentRecord => ({
  id,
  chapter_id: 'c1',
  position: Number(id.slice(1)),
  text: `Text ${id}`,
  emphasis: [],
  speaker: null,
  quotes: [],
  suggested_speaker: null,
  state,
  duration_ms: state === 'done' ? 900 : null,
  error: null,
  flag_note: null,
  checks: [],
});

function detail(): ProjectDetail {
  const segments = [segment('s0', 'done'), segment('s1', 'queued'), segment('s2', 'queued')];
  return {
    project: { id: 'p1' } as ProjectDetail['project'],
    characters: [],
    chapters: [
      {
        id: 'c1',
        position: 0,
        title: 'One',
        kind: 'body',
        included: true,
        characters: 30,
        segment_count: 3,
        segments_done: 1,
        duration_ms: null,
        changed_since_export: true,
        segments,
      },
      { ...({} as ProjectDetail['chapters'][number]), id: 'c2', segments: [] },
    ],
  };
}

describe('projects slice: what events and answers change', () => {
  it("applies a `project` event's segment states and recounts the chapter's done segments", () => {
    const before = detail();
    const after = withSegmentStates(before, {
      project_id: 'p1',
      render: null,
      segments: [
        { id: 's1', state: 'done' },
        { id: 's2', state: 'rendering' },
      ],
    });
    expect(after.chapters[0]!.segments.map((s) => s.state)).toEqual(['done', 'done', 'rendering']);
    expect(after.chapters[0]!.segments_done).toBe(2);
    // The other chapter and the untouched segment are the same objects (no re-render).
    expect(after.chapters[1]).toBe(before.chapters[1]);
    expect(after.chapters[0]!.segments[0]).toBe(before.chapters[0]!.segments[0]);
  });

  it("ignores another project's event, and one naming no segment it has", () => {
    const before = detail();
    expect(
      withSegmentStates(before, { project_id: 'p2', render: null, segments: [{ id: 's1', state: 'done' }] }),
    ).toBe(before);
    expect(
      withSegmentStates(before, { project_id: 'p1', render: null, segments: [{ id: 'zz', state: 'done' }] }),
    ).toBe(before);
  });

  it('replaces one segment with the answer of an edit or a regenerate', () => {
    const before = detail();
    const edited = { ...segment('s0', 'changed'), text: 'New text' };
    const after = withSegment(before, edited);
    expect(after.chapters[0]!.segments[0]).toBe(edited);
    expect(after.chapters[0]!.segments_done).toBe(0);
    expect(after.chapters[0]!.segments[1]).toBe(before.chapters[0]!.segments[1]);
  });
});
