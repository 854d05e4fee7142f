import { useCallback, useRef } from 'react';
import { fitScale, type Size } from './geometry';
import { MEDIUM_FROM, WIDE_FROM } from './styles';
import { useOwnWidth } from '../layout/useOwnWidth';

/** The canvas' room when it cannot be measured (jsdom). */
const FALLBACK_ROOM: Size = { width: 640, height: 400 };

/**
 * The editor's layout from the room it has: three columns (wide), two (medium) or one, and the scale that fits the
 * canvas of `size` in its room. `stageRoomRef` is the canvas' room, where focus goes after an edit.
 */
export function useEditorLayout(size: Size | null) {
  const [ownWidth, rootRef] = useOwnWidth();
  const wide = ownWidth === undefined || ownWidth >= WIDE_FROM;
  const medium = !wide && ownWidth !== undefined && ownWidth >= MEDIUM_FROM;
  const stageRoomRef = useRef<HTMLDivElement | null>(null);
  const [roomWidth, setRoomRef] = useOwnWidth();
  const roomRef = useCallback(
    (node: HTMLDivElement | null) => {
      stageRoomRef.current = node;
      setRoomRef(node);
    },
    [setRoomRef],
  );
  const roomHeight = typeof window !== 'undefined' && window.innerHeight ? Math.max(240, Math.min(760, Math.round(window.innerHeight * 0.6))) : FALLBACK_ROOM.height;
  const room: Size = roomWidth !== undefined ? { width: Math.max(120, roomWidth - 24), height: roomHeight } : FALLBACK_ROOM;
  const scale = size ? fitScale(size, room) : 1;
  return { rootRef, wide, medium, roomRef, stageRoomRef, scale };
}
