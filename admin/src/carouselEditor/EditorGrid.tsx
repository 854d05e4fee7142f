import type { ReactNode } from 'react';

/**
 * The editor's panels by the room it has. Wide: the two lists to pick from on the left, the canvas, the layer's fields
 * and the preview on the right; medium: the slides beside the canvas, below them the layers beside the fields; narrow:
 * one column.
 */
export function EditorGrid({
  wide,
  medium,
  slides,
  layers,
  canvas,
  inspector,
  preview,
}: {
  wide: boolean;
  medium: boolean;
  slides: ReactNode;
  layers: ReactNode;
  canvas: ReactNode;
  inspector: ReactNode;
  preview: ReactNode;
}) {
  return (
    <div className="ce-grid">
      {wide ? (
        <div className="ce-lists">
          {slides}
          {layers}
        </div>
      ) : (
        slides
      )}
      {canvas}
      <div className="ce-side">
        {wide ? (
          <>
            {inspector}
            {preview}
          </>
        ) : medium ? (
          <>
            <div className="ce-lists">
              {layers}
              {inspector}
            </div>
            {preview}
          </>
        ) : (
          <>
            {layers}
            {inspector}
            {preview}
          </>
        )}
      </div>
    </div>
  );
}
