import { useEffect, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import type { Lead } from '../api';
import { useApp } from '../context';
import { Icon } from '../Icon';
import { normaliseTag } from '../../../../resources/tags';

/** What a memo may last (platform-and-flows.md section 4); the recorder stops by itself then. */
export const MEMO_MAX_SECONDS = 120;
/** At most this many tags (the lead's ld_tags). */
const TAGS_MAX = 20;
/** The container a browser records speech in, best first (Chromium/Firefox: WebM or Ogg Opus; Safari: MP4 AAC). */
const MEMO_TYPES = ['audio/webm;codecs=opus', 'audio/webm', 'audio/ogg;codecs=opus', 'audio/mp4'];

const clock = (s: number) => `${Math.floor(s / 60)}:${String(Math.floor(s % 60)).padStart(2, '0')}`;

/** What the lead page saves: the qualification fields and the memo (a new recording, or removed). */
export interface QualifySave {
  changes: { ld_rating: number | null; ld_tags: string[]; ld_notes: string | null; ld_memo_fileid?: null };
  memo: Blob | null;
}

/** The memo shown: none, the lead's (its URL), or one recorded here (a blob URL; `saved` once queued). */
type Memo = { kind: 'none' } | { kind: 'stored'; url: string } | { kind: 'new'; blob: Blob; url: string; saved?: boolean };

/**
 * A lead's qualification on its page in the capture app: a rating (0–5 stars, radio buttons: arrow keys move, a
 * second tap on the chosen star clears it), tags (chips: Enter or comma adds, a chip's cross removes), notes, and a
 * voice memo (MediaRecorder, at most 2 minutes with a running timer; stop, play back, record again, delete). Saving
 * queues the change with the offline queue (the memo uploads like a card photo when the network is there).
 */
export function Qualify({ lead, onSave }: { lead: Lead; onSave: (save: QualifySave) => Promise<void> }) {
  const { t } = useApp();
  const [rating, setRating] = useState<number | null>(lead.ld_rating ?? null);
  const [tags, setTags] = useState<string[]>(lead.ld_tags ?? []);
  const [tagText, setTagText] = useState('');
  const [notes, setNotes] = useState(lead.ld_notes ?? '');
  const [memo, setMemo] = useState<Memo>(lead.ld_memo_url ? { kind: 'stored', url: lead.ld_memo_url } : { kind: 'none' });
  const [memoRemoved, setMemoRemoved] = useState(false);
  const [recording, setRecording] = useState(false);
  const [elapsed, setElapsed] = useState(0);
  const [error, setError] = useState('');
  const [dirty, setDirty] = useState(false);
  const [saving, setSaving] = useState(false);
  const recorder = useRef<MediaRecorder | null>(null);
  const timer = useRef<ReturnType<typeof setInterval> | null>(null);
  const touched = () => setDirty(true);

  // A blob URL is let go when its memo is replaced, and when the page goes.
  const localUrl = memo.kind === 'new' ? memo.url : null;
  useEffect(() => () => (localUrl ? URL.revokeObjectURL(localUrl) : undefined), [localUrl]);
  useEffect(
    () => () => {
      if (timer.current) clearInterval(timer.current);
      if (recorder.current?.state === 'recording') recorder.current.stop();
    },
    [],
  );

  const addTags = (raw: string) => {
    const next = [...tags];
    for (const tag of raw
      .split(/[,;\n]/)
      .map(normaliseTag)
      .filter(Boolean))
      if (!next.includes(tag) && next.length < TAGS_MAX) next.push(tag);
    if (next.length !== tags.length) {
      setTags(next);
      touched();
    }
    setTagText('');
  };
  const onTagKey = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'Enter' || e.key === ',') {
      e.preventDefault();
      addTags(tagText);
    } else if (e.key === 'Backspace' && !tagText && tags.length) {
      setTags(tags.slice(0, -1));
      touched();
    }
  };

  const stopRecording = () => {
    if (timer.current) clearInterval(timer.current);
    timer.current = null;
    if (recorder.current?.state === 'recording') recorder.current.stop();
  };
  const record = async () => {
    setError('');
    if (typeof MediaRecorder === 'undefined' || !navigator.mediaDevices?.getUserMedia) return setError(t('memo_unsupported'));
    let stream: MediaStream;
    try {
      stream = await navigator.mediaDevices.getUserMedia({ audio: true });
    } catch {
      return setError(t('memo_no_microphone'));
    }
    const mimeType = MEMO_TYPES.find((m) => MediaRecorder.isTypeSupported(m));
    const rec = new MediaRecorder(stream, mimeType ? { mimeType, audioBitsPerSecond: 64_000 } : undefined);
    const chunks: Blob[] = [];
    rec.ondataavailable = (e) => {
      if (e.data.size) chunks.push(e.data);
    };
    rec.onstop = () => {
      for (const track of stream.getTracks()) track.stop();
      setRecording(false);
      const type = (rec.mimeType || mimeType || 'audio/webm').split(';')[0];
      const blob = new Blob(chunks, { type });
      if (!blob.size) return setError(t('memo_failed'));
      setMemo({ kind: 'new', blob, url: URL.createObjectURL(blob), saved: false });
      setMemoRemoved(false);
      touched();
    };
    recorder.current = rec;
    rec.start(1000);
    const started = Date.now();
    setElapsed(0);
    setRecording(true);
    timer.current = setInterval(() => {
      const s = (Date.now() - started) / 1000;
      setElapsed(Math.min(s, MEMO_MAX_SECONDS));
      if (s >= MEMO_MAX_SECONDS) stopRecording();
    }, 250);
  };
  const removeMemo = () => {
    if (memo.kind === 'stored') setMemoRemoved(true);
    setMemo({ kind: 'none' });
    touched();
  };

  const save = async (e: FormEvent) => {
    e.preventDefault();
    if (recording) stopRecording();
    const pending = tagText.trim() ? [...tags, ...[normaliseTag(tagText)].filter((x) => x && !tags.includes(x))].slice(0, TAGS_MAX) : tags;
    setTags(pending);
    setTagText('');
    setSaving(true);
    try {
      await onSave({
        changes: { ld_rating: rating, ld_tags: pending, ld_notes: notes.trim() ? notes : null, ...(memoRemoved && memo.kind === 'none' ? { ld_memo_fileid: null } : {}) },
        memo: memo.kind === 'new' && !memo.saved ? memo.blob : null,
      });
      // The recording stays playable from the device; a later save does not send it again.
      if (memo.kind === 'new') setMemo({ ...memo, saved: true });
      setMemoRemoved(false);
      setDirty(false);
    } finally {
      setSaving(false);
    }
  };

  return (
    <form className="cap-card cap-qualify" onSubmit={save} data-testid="qualify">
      <h2 className="cap-form-title">{t('qualify_title')}</h2>

      <fieldset className="cap-rating">
        <legend>{t('rating')}</legend>
        <div className="cap-stars" role="radiogroup" aria-label={t('rating')}>
          {[0, 1, 2, 3, 4, 5].map((n) => (
            <label key={n} className={`cap-star${rating !== null && n <= rating && n > 0 ? ' cap-star--on' : ''}${n === 0 ? ' cap-star--zero' : ''}`} title={t('rating_n', { n })}>
              <input
                type="radio"
                name="ld_rating"
                value={n}
                checked={rating === n}
                onChange={() => {
                  setRating(n);
                  touched();
                }}
                onClick={() => {
                  // A second tap on the chosen rating clears it (not rated).
                  if (rating === n) {
                    setRating(null);
                    touched();
                  }
                }}
                aria-label={t('rating_n', { n })}
              />
              <span aria-hidden="true">{n === 0 ? '0' : '★'}</span>
            </label>
          ))}
        </div>
        <span className="cap-muted cap-rating-value" aria-live="polite">
          {rating === null ? t('rating_none') : t('rating_n', { n: rating })}
        </span>
      </fieldset>

      <div className="cap-field">
        <label htmlFor="cap-tags">{t('tags')}</label>
        <div className="cap-tags">
          {tags.map((tag) => (
            <span key={tag} className="cap-tag">
              {tag}
              <button
                type="button"
                aria-label={t('tag_remove', { tag })}
                onClick={() => {
                  setTags(tags.filter((x) => x !== tag));
                  touched();
                }}
              >
                <Icon name="close" />
              </button>
            </span>
          ))}
          <input
            id="cap-tags"
            name="ld_tags"
            value={tagText}
            onChange={(e) => (/[,;]/.test(e.target.value) ? addTags(e.target.value) : setTagText(e.target.value))}
            onKeyDown={onTagKey}
            onBlur={() => tagText.trim() && addTags(tagText)}
            placeholder={tags.length >= TAGS_MAX ? t('tags_full') : t('tags_placeholder')}
            disabled={tags.length >= TAGS_MAX}
            autoCapitalize="none"
            enterKeyHint="enter"
          />
        </div>
      </div>

      <label className="cap-field">
        <span>{t('notes')}</span>
        <textarea
          name="ld_notes"
          value={notes}
          rows={3}
          maxLength={10_000}
          onChange={(e) => {
            setNotes(e.target.value);
            touched();
          }}
        />
      </label>

      <div className="cap-memo" data-testid="memo">
        <span className="cap-memo-title">{t('memo')}</span>
        {recording ? (
          <div className="cap-memo-row">
            <span className="cap-rec-dot" aria-hidden="true" />
            <span className="cap-memo-time" role="timer" aria-live="off" data-testid="memo-timer">
              {clock(elapsed)} / {clock(MEMO_MAX_SECONDS)}
            </span>
            <button type="button" className="cap-btn cap-btn--primary" onClick={stopRecording}>
              <Icon name="stop" />
              {t('memo_stop')}
            </button>
          </div>
        ) : memo.kind === 'none' ? (
          <button type="button" className="cap-btn" onClick={() => void record()}>
            <Icon name="mic" />
            {t('memo_record')}
          </button>
        ) : (
          <>
            <audio controls src={memo.url} preload="metadata" data-testid="memo-audio" className="cap-memo-audio" />
            {memo.kind === 'new' && !memo.saved && <span className="cap-muted">{t('memo_unsaved')}</span>}
            <div className="cap-memo-row">
              <button type="button" className="cap-btn" onClick={() => void record()}>
                <Icon name="mic" />
                {t('memo_rerecord')}
              </button>
              <button type="button" className="cap-btn cap-btn--danger" onClick={removeMemo}>
                <Icon name="trash" />
                {t('memo_delete')}
              </button>
            </div>
          </>
        )}
      </div>

      {error && (
        <p className="cap-error" role="alert">
          {error}
        </p>
      )}
      <div className="cap-savebar">
        <button type="submit" className="cap-btn cap-btn--primary" disabled={saving || recording || !dirty}>
          <Icon name="check" />
          {t('qualify_save')}
        </button>
      </div>
    </form>
  );
}
