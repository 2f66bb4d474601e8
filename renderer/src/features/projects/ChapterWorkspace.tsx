import { useCallback, useState } from 'react';
import { FormattedMessage } from 'react-intl';
import { useStudio } from '../../stores';
import { ChapterList } from './ChapterList';
import { ChapterPlayer } from './ChapterPlayer';
import { RenderControls } from './RenderControls';
import { SegmentList } from './SegmentList';
import { useChapterPlayer } from './useChapterPlayer';

const NO_SEGMENTS: never[] = [];

/**
 * Chapters beside the open chapter: its render controls, its player and its segments (those read
 * so far; the list and the player read more as they reach their end).
 */
export function ChapterWorkspace() {
  const detail = useStudio((s) => s.project)!;
  const openId = useStudio((s) => s.openChapterId);
  const loaded = useStudio((s) => (openId ? s.chapterSegments[openId] : undefined));
  const loadSegments = useStudio((s) => s.loadSegments);
  const chapter = detail.chapters.find((c) => c.id === openId);
  const segments = loaded?.items ?? NO_SEGMENTS;
  const loadMore = useCallback(
    () => (openId ? loadSegments(openId, true) : Promise.resolve(null)),
    [openId, loadSegments],
  );
  const [audio, setAudio] = useState<HTMLAudioElement | null>(null);
  const player = useChapterPlayer(audio, detail.project.id, segments, loadMore);
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  /** The segment whose editor is open (scrolled to when the player or the check list asks). */
  const [openSegment, setOpenSegment] = useState<string | null>(null);

  return (
    <div className="chapter-workspace">
      <ChapterList />
      <div className="chapter-main">
        <RenderControls
          chapter={chapter ?? null}
          selected={[...selected].filter((sid) => segments.some((s) => s.id === sid))}
        />
        {chapter ? (
          <>
            <ChapterPlayer
              chapter={chapter}
              segments={segments}
              player={player}
              audioRef={setAudio}
              onOpenSegment={setOpenSegment}
            />
            <SegmentList
              key={chapter.id}
              chapter={chapter}
              segments={segments}
              loaded={loaded !== undefined}
              onLoadMore={loadMore}
              player={player}
              selected={selected}
              onSelect={setSelected}
              openSegment={openSegment}
              onOpenSegment={setOpenSegment}
            />
          </>
        ) : (
          <p className="panel muted">
            <FormattedMessage
              id="projects.workspace.noChapters"
              defaultMessage="This project has no chapters yet. Import a manuscript into it from the Projects list."
            />
          </p>
        )}
      </div>
    </div>
  );
}
