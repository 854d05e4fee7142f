import { useLayoutEffect, useRef, type RefObject } from 'react';

/** A ref that holds the value of the last render, for callbacks that must keep their identity yet read what is now. */
export function useLatest<T>(value: T): RefObject<T> {
  const ref = useRef(value);
  useLayoutEffect(() => {
    ref.current = value;
  });
  return ref;
}
