import { memo, type KeyboardEvent } from 'react';
import { describedBy, FieldShell, type ElementProps } from './Field';
import { sliderRange, snapToStep } from './model';

/**
 * slider: a native range input over fe_options {min, max, step} (default 0..100 by 1, spec 9) with the value shown
 * beside the label (the input says it as aria-valuetext). The keys are handled here (arrows, Page Up/Down by ten
 * steps, Home, End) so that every browser moves by the same steps and the answer is always on a step.
 */
export const SliderElement = memo(function SliderElement(props: ElementProps) {
  const { el, value, emit, error, id, locale } = props;
  const range = sliderRange(el);
  const current = typeof value === 'number' && Number.isFinite(value) ? snapToStep(value, range) : range.min;
  const shown = current.toLocaleString(locale);
  const set = (v: number) => {
    const next = snapToStep(v, range);
    if (next !== current || typeof value !== 'number') emit(el.fe_name, next);
  };
  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    const moves: Record<string, number> = {
      ArrowRight: current + range.step,
      ArrowUp: current + range.step,
      ArrowLeft: current - range.step,
      ArrowDown: current - range.step,
      PageUp: current + range.step * 10,
      PageDown: current - range.step * 10,
      Home: range.min,
      End: range.max,
    };
    if (!(e.key in moves)) return;
    e.preventDefault();
    set(moves[e.key]);
  };
  return (
    <FieldShell
      props={props}
      spokenRequired
      extra={
        <output htmlFor={id} className="ls-form-slider-value" aria-hidden="true">
          {shown}
        </output>
      }
    >
      <input
        id={id}
        name={el.fe_name}
        type="range"
        className="ls-form-slider"
        min={range.min}
        max={range.max}
        step={range.step}
        value={current}
        aria-valuetext={shown}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, error)}
        onChange={(e) => set(Number(e.target.value))}
        onKeyDown={onKeyDown}
      />
      <div className="ls-form-slider-scale" aria-hidden="true">
        <span>{range.min.toLocaleString(locale)}</span>
        <span>{range.max.toLocaleString(locale)}</span>
      </div>
    </FieldShell>
  );
});
