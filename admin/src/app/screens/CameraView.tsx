import { useEffect, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { CameraError, captureFrame, openCamera, scanVideo, stopCamera, type CameraProblem } from '../camera';
import { useApp } from '../context';
import { Icon } from '../Icon';

/** A full-screen dialog: focus inside, Escape closes, focus back where it was. */
export function Dialog({ title, onClose, children }: { title: string; onClose: () => void; children: ReactNode }) {
  const { t } = useApp();
  const closeRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    const before = document.activeElement as HTMLElement | null;
    closeRef.current?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') onClose();
    };
    window.addEventListener('keydown', onKey);
    return () => {
      window.removeEventListener('keydown', onKey);
      before?.focus?.();
    };
  }, [onClose]);
  return (
    <div className="cap-dialog" role="dialog" aria-modal="true" aria-labelledby="cap-dialog-title">
      <div className="cap-dialog-bar">
        <h2 id="cap-dialog-title">{title}</h2>
        <button type="button" ref={closeRef} className="cap-iconbtn" onClick={onClose} aria-label={t('close')}>
          <Icon name="close" />
        </button>
      </div>
      <div className="cap-dialog-body">{children}</div>
    </div>
  );
}

/** "Camera access is needed" and how to allow it (or why there is none), with a retry. */
export function CameraProblemNote({ problem, onRetry }: { problem: CameraProblem; onRetry: () => void }) {
  const { t } = useApp();
  return (
    <div className="cap-camera-problem" role="alert" data-testid="camera-problem">
      <Icon name="camera" className="cap-empty-icon" />
      <p className="cap-empty-title">{t('camera_needed')}</p>
      <p>{problem === 'denied' ? t('camera_how') : problem === 'insecure' ? t('camera_insecure') : t('camera_unavailable')}</p>
      <button type="button" className="cap-btn" onClick={onRetry}>
        <Icon name="refresh" />
        {t('retry')}
      </button>
    </div>
  );
}

/** The camera's picture in a <video>, opened while mounted; `onReady` gets the playing video. */
function useCamera(onReady?: (video: HTMLVideoElement, signal: AbortSignal) => void) {
  const videoRef = useRef<HTMLVideoElement>(null);
  const [problem, setProblem] = useState<CameraProblem | null>(null);
  const [ready, setReady] = useState(false);
  const [attempt, setAttempt] = useState(0);
  const readyRef = useRef(onReady);
  readyRef.current = onReady;
  useEffect(() => {
    const ac = new AbortController();
    let stream: MediaStream | null = null;
    setProblem(null);
    setReady(false);
    openCamera().then(
      async (s) => {
        if (ac.signal.aborted) return stopCamera(s);
        stream = s;
        const video = videoRef.current!;
        video.srcObject = s;
        await video.play().catch(() => undefined);
        setReady(true);
        readyRef.current?.(video, ac.signal);
      },
      (e: unknown) => !ac.signal.aborted && setProblem(e instanceof CameraError ? e.problem : 'unavailable'),
    );
    return () => {
      ac.abort();
      stopCamera(stream);
    };
  }, [attempt]);
  return { videoRef, problem, ready, retry: () => setAttempt((n) => n + 1) };
}

/** Badge scan: the camera reads the code by itself; a typed code works too (and without a camera). */
export function Scanner({ onCode, onClose }: { onCode: (code: string) => void; onClose: () => void }) {
  const { t } = useApp();
  const [typed, setTyped] = useState('');
  const done = useRef(false);
  const found = (code: string) => {
    if (done.current) return;
    done.current = true;
    onCode(code.trim());
  };
  const { videoRef, problem, retry } = useCamera((video, signal) => {
    scanVideo(video, signal).then(found, () => undefined);
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (typed.trim()) found(typed);
  };
  return (
    <Dialog title={t('scan_title')} onClose={onClose}>
      {problem ? (
        <CameraProblemNote problem={problem} onRetry={retry} />
      ) : (
        <div className="cap-viewfinder cap-viewfinder--scan">
          <video ref={videoRef} muted playsInline aria-label={t('scan_hint')} data-testid="scan-video" />
          <span className="cap-viewfinder-frame" aria-hidden="true" />
          <p className="cap-viewfinder-hint">{t('scan_hint')}</p>
        </div>
      )}
      <form className="cap-typed" onSubmit={submit}>
        <label className="cap-field">
          <span>{t('scan_typed')}</span>
          <input value={typed} onChange={(e) => setTyped(e.target.value)} autoComplete="off" autoCapitalize="characters" aria-label={t('badge_code')} name="badge_code" />
        </label>
        <button type="submit" className="cap-btn cap-btn--primary" disabled={!typed.trim()}>
          {t('look_up')}
        </button>
      </form>
    </Dialog>
  );
}

/** A card photo from the camera, resized in the browser (longest side 1600 px, JPEG 0.8). */
export function PhotoTaker({ title, onPhoto, onClose }: { title: string; onPhoto: (photo: Blob) => void; onClose: () => void }) {
  const { t } = useApp();
  const [busy, setBusy] = useState(false);
  const { videoRef, problem, ready, retry } = useCamera();
  const shoot = async () => {
    if (!videoRef.current) return;
    setBusy(true);
    try {
      onPhoto(await captureFrame(videoRef.current));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Dialog title={title} onClose={onClose}>
      {problem ? (
        <CameraProblemNote problem={problem} onRetry={retry} />
      ) : (
        <>
          <div className="cap-viewfinder cap-viewfinder--card">
            <video ref={videoRef} muted playsInline aria-label={title} data-testid="photo-video" />
            <span className="cap-viewfinder-frame" aria-hidden="true" />
          </div>
          <button type="button" className="cap-btn cap-btn--primary cap-btn--block cap-shutter" onClick={() => void shoot()} disabled={!ready || busy}>
            <Icon name="camera" />
            {t('take_photo')}
          </button>
        </>
      )}
    </Dialog>
  );
}
