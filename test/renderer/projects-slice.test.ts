import { describe, expect, it } from 'vitest';
import type { ProjectDetail, SegmentRecord } from '../../electron/shared/projects';
import { withSegment, withSegmentStates } from '../../renderer/src/stores/project-segment-windows';

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

/** A project of two chapters, the first's three segments read (one done), the second's not. */
function view() {
  const segments = [segment('s0', 'done'), segment('s1', 'queued'), segment('s2', 'queued')];
  const project: ProjectDetail = {
    project: { id: 'p1', segments_done: 1 } as ProjectDetail['project'],
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
        exported: true,
        changed_since_export: true,
        spoken_heading: 'One',
        spoken_heading_edited: false,
      },
      { ...({} as ProjectDetail['chapters'][number]), id: 'c2', segment_count: 4 },
    ],
  };
  return { project, chapterSegments: { c1: { items: segments, total: 3 } } };
}

describe('projects slice: what events and answers change', () => {
  it("applies a `project` event's segment states and moves the done counts", () => {
    const before = view();
    const after = withSegmentStates(before, {
      project_id: 'p1',
      render: null,
      segments: [
        { id: 's1', state: 'done' },
        { id: 's2', state: 'rendering' },
      ],
    });
    expect(after.missed).toBe(false);
    expect(after.chapterSegments.c1!.items.map((s) => s.state)).toEqual(['done', 'done', 'rendering']);
    expect(after.project.chapters[0]!.segments_done).toBe(2);
    expect(after.project.project.segments_done).toBe(2);
    // The other chapter and the untouched segment are the same objects (no re-render).
    expect(after.project.chapters[1]).toBe(before.project.chapters[1]);
    expect(after.chapterSegments.c1!.items[0]).toBe(before.chapterSegments.c1.items[0]);
  });

  it("ignores another project's event; one naming a segment not read says it missed it", () => {
    const before = view();
    const other = withSegmentStates(before, {
      project_id: 'p2',
      render: null,
      segments: [{ id: 's1', state: 'done' }],
    });
    expect(other.chapterSegments).toBe(before.chapterSegments);
    expect(other.project).toBe(before.project);
    expect(other.missed).toBe(false);
    const unread = withSegmentStates(before, {
      project_id: 'p1',
      render: null,
      segments: [{ id: 'zz', state: 'done' }],
    });
    expect(unread.chapterSegments).toBe(before.chapterSegments);
    expect(unread.project).toBe(before.project);
    expect(unread.missed).toBe(true);
  });

  it('replaces one segment with the answer of an edit or a regenerate', () => {
    const before = view();
    const edited = { ...segment('s0', 'changed'), text: 'New text' };
    const after = withSegment(before, edited);
    expect(after.chapterSegments.c1!.items[0]).toBe(edited);
    expect(after.project.chapters[0]!.segments_done).toBe(0);
    expect(after.chapterSegments.c1!.items[1]).toBe(before.chapterSegments.c1.items[1]);
  });
});
