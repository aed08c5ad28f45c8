import {
  useCallback,
  useEffect,
  useRef,
  useState,
  type KeyboardEvent,
  type PointerEvent,
} from 'react';
import { useTranslation } from 'react-i18next';
import { formatCount } from '../../i18n';
import { useImageMode, useRevealed, type ImageContext } from '../../safeguards';
import type { CropBox } from './types';
import {
  applyCommand,
  commandForKey,
  cssTransform,
  FIT,
  fitScale,
  imagePointAt,
  zoomAt,
  type Size,
  type View,
} from './viewer-math';

/** What Chromium, Firefox and Safari all decode; anything else is shown as a derived rendition. */
const BROWSER_TYPES = new Set([
  'image/jpeg',
  'image/png',
  'image/gif',
  'image/webp',
  'image/avif',
  'image/bmp',
]);
const LOUPE = 220;

export interface ViewerProps {
  itemId: string;
  mediaType: string | null;
  /** A preview exists (the item was analysed). */
  analysed: boolean;
  label: string;
  testId: string;
  /** Controlled view (the side-by-side comparison shares one); else the viewer keeps its own. */
  view?: View;
  onView?: (v: View) => void;
  /** A box to outline, in fractions of the image's width and height. */
  box?: CropBox | null;
  boxLabel?: string;
  compact?: boolean;
  /**
   * Other addresses than the item's own (a case's photograph, named by code and ordinal): the
   * blurred preview, the unblurred 1280 px preview and the full-resolution image.
   */
  source?: { blurred: string; unblurred: string; full: string };
  /** Called once the full-resolution image is shown, revealed. */
  onFullShown?: () => void;
  /** Where the viewer is: inside an examiner's own case, an examiner who opted in sees colour. */
  imageContext?: ImageContext;
}

type Full =
  | { state: 'idle' }
  | { state: 'loading' }
  | { state: 'ready'; img: HTMLImageElement; size: Size }
  | { state: 'failed' };

/**
 * A blurred, greyscale preview until revealed; then the full-resolution original (or, for a type
 * a browser cannot decode, a lossless derived PNG, labelled so), shown first as the 1280 px
 * preview scaled up and swapped for the original once decoded. Zoom, pan, rotation and a
 * magnifier, by pointer and by key.
 */
export function Viewer(props: ViewerProps) {
  const { itemId, mediaType, analysed, label, testId, box, boxLabel, compact, source, onFullShown } =
    props;
  const { t, i18n } = useTranslation();
  const [revealed, setRevealed] = useRevealed(itemId);
  const mode = useImageMode(props.imageContext ?? 'general');
  const [grey, setGrey] = useState(mode === 'greyscale');
  const autoChecked = useRef(false);
  const [ownView, setOwnView] = useState<View>(FIT);
  const view = props.view ?? ownView;
  const onView = props.onView;
  const setView = useCallback((v: View) => (onView ?? setOwnView)(v), [onView]);
  const stage = useRef<HTMLDivElement>(null);
  const [stageSize, setStageSize] = useState<Size>({ width: 0, height: 0 });
  const [full, setFull] = useState<Full>({ state: 'idle' });
  const [preview, setPreview] = useState<Size | null>(null);
  const [loupe, setLoupe] = useState(false);
  const [pointer, setPointer] = useState<{ x: number; y: number } | null>(null);
  const drag = useRef<{ id: number; x: number; y: number; view: View } | null>(null);
  const loupeCanvas = useRef<HTMLCanvasElement>(null);

  const renderable = mediaType !== null && BROWSER_TYPES.has(mediaType);
  const derived =
    source === undefined && mediaType !== null && !renderable && mediaType.startsWith('image/');
  const blurredUrl = source?.blurred ?? `/api/items/${itemId}/preview?size=1280`;
  const unblurredUrl =
    source?.unblurred ?? `/api/items/${itemId}/preview?size=1280&unblurred=true`;
  const fullUrl = source !== undefined
    ? source.full
    : renderable
    ? `/api/items/${itemId}/original`
    : derived
      ? `/api/items/${itemId}/rendition`
      : null;

  useEffect(() => {
    const el = stage.current;
    if (el === null) return;
    const measure = (): void => setStageSize({ width: el.clientWidth, height: el.clientHeight });
    measure();
    const ro = new ResizeObserver(measure);
    ro.observe(el);
    return () => ro.disconnect();
  }, []);

  // A default of greyscale or colour (the account's image settings) reveals the image when shown:
  // once per viewer, so that "Blur again" stays blurred. Each is a recorded, unblurred view.
  useEffect(() => {
    if (autoChecked.current) return;
    autoChecked.current = true;
    if (mode !== 'blurred' && !revealed && fullUrl !== null) setRevealed(true);
  }, [mode, revealed, fullUrl, setRevealed]);

  // The original, loaded and decoded off screen, then swapped in (progressive).
  useEffect(() => {
    if (!revealed || fullUrl === null) {
      setFull({ state: 'idle' });
      return;
    }
    let live = true;
    setFull({ state: 'loading' });
    const img = new Image();
    img.decoding = 'async';
    img.src = fullUrl;
    img.decode().then(
      () =>
        live &&
        setFull({ state: 'ready', img, size: { width: img.naturalWidth, height: img.naturalHeight } }),
      () => live && setFull({ state: 'failed' }),
    );
    return () => {
      live = false;
    };
  }, [revealed, fullUrl]);

  useEffect(() => {
    if (revealed && full.state === 'ready') onFullShown?.();
  }, [revealed, full.state, onFullShown]);

  // The wheel zooms about the pointer (a non-passive listener: the page must not scroll).
  useEffect(() => {
    const el = stage.current;
    if (el === null || !revealed) return;
    const onWheel = (e: WheelEvent): void => {
      e.preventDefault();
      const r = el.getBoundingClientRect();
      const at = { x: e.clientX - r.left - r.width / 2, y: e.clientY - r.top - r.height / 2 };
      setView(zoomAt(view, Math.exp(-e.deltaY / 500), at));
    };
    el.addEventListener('wheel', onWheel, { passive: false });
    return () => el.removeEventListener('wheel', onWheel);
  }, [revealed, view, setView]);

  const shown: { src: string; size: Size; original: boolean } | null =
    full.state === 'ready' && fullUrl !== null
      ? { src: fullUrl, size: full.size, original: true }
      : analysed && preview !== null
        ? { src: unblurredUrl, size: preview, original: false }
        : null;

  // The magnifier: the original's own pixels around the pointer (or the centre), 3× the view.
  useEffect(() => {
    const canvas = loupeCanvas.current;
    if (!loupe || canvas === null || full.state !== 'ready') return;
    const ctx = canvas.getContext('2d');
    if (ctx === null) return;
    const at = pointer ?? { x: 0, y: 0 };
    const p = imagePointAt(view, full.size, stageSize, at);
    const k = Math.max(1, 3 * fitScale(full.size, stageSize, view.rotation) * view.zoom);
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.fillStyle = '#1f2529';
    ctx.fillRect(0, 0, LOUPE, LOUPE);
    ctx.imageSmoothingEnabled = k < 4;
    ctx.translate(LOUPE / 2, LOUPE / 2);
    ctx.rotate((view.rotation * Math.PI) / 2);
    ctx.scale(k, k);
    ctx.drawImage(full.img, -p.x, -p.y);
  }, [loupe, pointer, view, full, stageSize]);

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>): void => {
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    // On the image itself, Enter or Space reveals it (as the button does).
    if (!revealed) {
      if ((e.key === 'Enter' || e.key === ' ') && e.target === e.currentTarget && fullUrl !== null) {
        e.preventDefault();
        setRevealed(true);
      }
      return;
    }
    const cmd = commandForKey(e.key, stageSize);
    if (cmd === null) return;
    e.preventDefault();
    if (cmd.op === 'loupe') {
      setLoupe((l) => !l);
      setPointer(null);
    } else setView(applyCommand(view, cmd, shown?.size ?? stageSize, stageSize));
  };
  const local = (e: PointerEvent<HTMLDivElement>): { x: number; y: number } => {
    const r = e.currentTarget.getBoundingClientRect();
    return { x: e.clientX - r.left - r.width / 2, y: e.clientY - r.top - r.height / 2 };
  };
  const onPointerDown = (e: PointerEvent<HTMLDivElement>): void => {
    if (!revealed || e.button !== 0) return;
    e.currentTarget.setPointerCapture(e.pointerId);
    drag.current = { id: e.pointerId, x: e.clientX, y: e.clientY, view };
  };
  const onPointerMove = (e: PointerEvent<HTMLDivElement>): void => {
    if (loupe) setPointer(local(e));
    const d = drag.current;
    if (d === null || d.id !== e.pointerId) return;
    setView({ ...d.view, x: d.view.x + e.clientX - d.x, y: d.view.y + e.clientY - d.y });
  };
  const onPointerUp = (): void => {
    drag.current = null;
  };

  const act = (op: Parameters<typeof applyCommand>[1]): void =>
    setView(applyCommand(view, op, shown?.size ?? stageSize, stageSize));
  const scale = shown === null ? 1 : fitScale(shown.size, stageSize, view.rotation) * view.zoom;
  const lang = i18n.language;

  return (
    <div
      className={`viewer${compact === true ? ' compact' : ''}${revealed && grey ? ' safeguard-greyscale' : ''}`}
      data-testid={testId}
    >
      <div
        ref={stage}
        className={`viewer-stage${revealed ? ' revealed' : ''}`}
        dir="ltr"
        tabIndex={0}
        role="application"
        aria-label={`${label}. ${t('item.viewer.label')}`}
        onKeyDown={onKeyDown}
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={onPointerUp}
        onPointerCancel={onPointerUp}
        onPointerLeave={() => setPointer(null)}
      >
        {!revealed &&
          (analysed ? (
            <img
              className="viewer-blurred blurred-preview"
              src={blurredUrl}
              alt={t('item.viewer.blurredAlt')}
              draggable={false}
            />
          ) : null)}
        {revealed && analysed && full.state !== 'ready' && preview === null && (
          // Only to learn the preview's size; shown through `shown` below.
          <img
            className="viewer-probe"
            src={unblurredUrl}
            alt=""
            onLoad={(e) =>
              setPreview({
                width: e.currentTarget.naturalWidth,
                height: e.currentTarget.naturalHeight,
              })
            }
          />
        )}
        {revealed && shown !== null && (
          <div
            className="viewer-layer"
            style={{
              inlineSize: `${shown.size.width}px`,
              blockSize: `${shown.size.height}px`,
              marginInlineStart: `${-shown.size.width / 2}px`,
              marginBlockStart: `${-shown.size.height / 2}px`,
              transform: cssTransform(view, shown.size, stageSize),
            }}
          >
            <img
              src={shown.src}
              data-testid={shown.original ? `${testId}-original` : `${testId}-preview`}
              alt={derived ? t('item.viewer.derivedAlt') : t('item.viewer.imageAlt')}
              draggable={false}
              style={{ imageRendering: scale >= 2 ? 'pixelated' : 'auto' }}
            />
            {box != null && (
              <div
                className="crop-box"
                role="img"
                aria-label={boxLabel}
                style={{
                  insetInlineStart: `${box.left * 100}%`,
                  insetBlockStart: `${box.top * 100}%`,
                  inlineSize: `${(box.right - box.left) * 100}%`,
                  blockSize: `${(box.bottom - box.top) * 100}%`,
                }}
              />
            )}
          </div>
        )}
        {revealed && loupe && full.state === 'ready' && (
          <canvas
            ref={loupeCanvas}
            className="loupe"
            width={LOUPE}
            height={LOUPE}
            aria-hidden="true"
            style={{
              insetInlineStart: `${(pointer?.x ?? 0) + stageSize.width / 2 - LOUPE / 2}px`,
              insetBlockStart: `${(pointer?.y ?? 0) + stageSize.height / 2 - LOUPE / 2}px`,
            }}
          />
        )}
        {!revealed && (
          <div className="viewer-veil" dir={i18n.dir(lang)}>
            <p>{t('item.viewer.warning')}</p>
            {fullUrl !== null && (
              <>
                <button
                  type="button"
                  className="button"
                  data-testid={`${testId}-reveal`}
                  onClick={() => setRevealed(true)}
                >
                  {t('item.viewer.reveal')}
                </button>
                <p className="muted small">{t('item.viewer.revealNote')}</p>
              </>
            )}
          </div>
        )}
      </div>
      {revealed && (
        <div className="viewer-bar">
          <div className="viewer-tools" role="toolbar" aria-label={t('item.viewer.heading')}>
            <button type="button" className="button quiet" onClick={() => act({ op: 'zoom', factor: 1.25 })}>
              {t('item.viewer.zoomIn')}
            </button>
            <button type="button" className="button quiet" onClick={() => act({ op: 'zoom', factor: 0.8 })}>
              {t('item.viewer.zoomOut')}
            </button>
            <button type="button" className="button quiet" onClick={() => act({ op: 'fit' })}>
              {t('item.viewer.fit')}
            </button>
            <button type="button" className="button quiet" onClick={() => act({ op: 'actual' })}>
              {t('item.viewer.actual')}
            </button>
            <button type="button" className="button quiet" onClick={() => act({ op: 'rotate', by: 1 })}>
              {t('item.viewer.rotate')}
            </button>
            <button
              type="button"
              className="button quiet"
              aria-pressed={loupe}
              disabled={full.state !== 'ready'}
              onClick={() => setLoupe((l) => !l)}
            >
              {t('item.viewer.loupe')}
            </button>
            <button
              type="button"
              className="button quiet"
              data-testid={`${testId}-colour`}
              aria-pressed={!grey}
              onClick={() => setGrey((g) => !g)}
            >
              {t('safeguards.viewer.colour')}
            </button>
            <button type="button" className="button quiet" onClick={() => setRevealed(false)}>
              {t('item.viewer.hide')}
            </button>
          </div>
          <p className="viewer-status" data-testid={`${testId}-status`} role="status">
            {full.state === 'loading' && t('item.viewer.loadingOriginal')}
            {full.state === 'failed' && t('item.viewer.failed')}
            {full.state === 'ready' &&
              (derived
                ? t('item.viewer.derivedShown', { type: mediaType })
                : t('item.viewer.originalShown', {
                    width: formatCount(full.size.width, lang),
                    height: formatCount(full.size.height, lang),
                  }))}{' '}
            <span className="muted">
              {t('item.viewer.zoom', { percent: formatCount(Math.round(scale * 100), lang) })}
            </span>
          </p>
        </div>
      )}
      {fullUrl === null && <p className="muted">{t('item.viewer.noImage')}</p>}
    </div>
  );
}
