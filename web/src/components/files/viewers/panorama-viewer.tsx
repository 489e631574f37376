import { useEffect, useRef, useState, type KeyboardEvent, type PointerEvent } from 'react';
import type { ViewerProps } from './viewer-common.js';
import { clampPitch, PANORAMA_PITCH_LIMIT, PANORAMA_SENSITIVITY } from '../viewer-kind.js';

/**
 * A 2:1 equirectangular jpg as a draggable 360° view without a 3D library: the image wraps around
 * horizontally (yaw, any angle) and pans vertically (pitch, clamped to −85..85°), at 0.1° per
 * dragged pixel. Arrow keys turn it by 5° for keyboard users.
 */
export default function PanoramaViewer({ url, name }: ViewerProps) {
  const [view, setView] = useState({ yaw: 0, pitch: 0 });
  const drag = useRef<{ x: number; y: number; yaw: number; pitch: number } | null>(null);
  const box = useRef<HTMLDivElement>(null);
  const [frame, setFrame] = useState({ width: 0, height: 0 });
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const measure = () => setFrame({ width: el.clientWidth, height: el.clientHeight });
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => observer.disconnect();
  }, []);

  const onPointerDown = (e: PointerEvent<HTMLDivElement>) => {
    e.currentTarget.setPointerCapture(e.pointerId);
    drag.current = { x: e.clientX, y: e.clientY, ...view };
  };
  const onPointerMove = (e: PointerEvent<HTMLDivElement>) => {
    const start = drag.current;
    if (!start) return;
    setView({
      yaw: (((start.yaw - (e.clientX - start.x) * PANORAMA_SENSITIVITY) % 360) + 360) % 360,
      pitch: clampPitch(start.pitch + (e.clientY - start.y) * PANORAMA_SENSITIVITY),
    });
  };
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const turn: Record<string, [number, number]> = { ArrowLeft: [-5, 0], ArrowRight: [5, 0], ArrowUp: [0, 5], ArrowDown: [0, -5] };
    const step = turn[e.key];
    if (!step) return;
    e.preventDefault();
    setView((v) => ({ yaw: (((v.yaw + step[0]) % 360) + 360) % 360, pitch: clampPitch(v.pitch + step[1]) }));
  };

  // The image is shown at twice the view's height: a full turn (360°) is its whole width, and the
  // vertical angle moves the view over its whole height.
  const imageHeight = frame.height * 2;
  const imageWidth = imageHeight * 2;
  const x = frame.width / 2 - ((view.yaw / 360) * imageWidth + imageWidth / 2);
  // Looking fully up (85°) shows the image's top edge at the frame's top, fully down its bottom edge.
  const y = (frame.height - imageHeight) / 2 + (view.pitch / PANORAMA_PITCH_LIMIT) * ((imageHeight - frame.height) / 2);
  return (
    <div
      ref={box}
      className="tw-panorama"
      role="img"
      aria-label={`${name}, 360° view: drag or use the arrow keys to look around`}
      tabIndex={0}
      data-yaw={view.yaw.toFixed(1)}
      data-pitch={view.pitch.toFixed(1)}
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={() => (drag.current = null)}
      onPointerCancel={() => (drag.current = null)}
      onKeyDown={onKeyDown}
      style={{
        backgroundImage: `url("${url.replace(/"/g, '%22')}")`,
        backgroundSize: `${imageWidth}px ${imageHeight}px`,
        backgroundRepeat: 'repeat-x',
        backgroundPosition: `${x}px ${y}px`,
      }}
    />
  );
}
