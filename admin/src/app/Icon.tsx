/** The app's few icons as inline SVG paths (Material Symbols shapes, 24 px grid): no icon font, no MUI. */
const PATHS = {
  online: 'M12 21 0 9q2.4-2.3 5.5-3.6T12 4t6.5 1.4T24 9L12 21Z',
  offline: 'm20.5 23.3-3.2-3.2L12 21 0 9q1.1-1.1 2.4-2L.7 5.3l1.4-1.4 19.8 19.8-1.4 1.4ZM19.2 15.4 8.6 4.8Q9.5 4.6 10.3 4.5 11.2 4.4 12 4.4q3.4 0 6.5 1.3T24 9.4l-4.8 6Z',
  upload: 'M11 16V7.9l-2.6 2.6L7 9l5-5 5 5-1.4 1.5L13 7.9V16h-2Zm-5 4q-.8 0-1.4-.6T4 18v-3h2v3h12v-3h2v3q0 .8-.6 1.4T18 20H6Z',
  event:
    'M5 22q-.8 0-1.4-.6T3 20V6q0-.8.6-1.4T5 4h1V2h2v2h8V2h2v2h1q.8 0 1.4.6T21 6v14q0 .8-.6 1.4T19 22H5Zm0-2h14V10H5v10Zm0-12h14V6H5v2Zm7 6q-.4 0-.7-.3T11 13t.3-.7.7-.3.7.3.3.7-.3.7-.7.3Zm-4 0q-.4 0-.7-.3T7 13t.3-.7T8 12t.7.3.3.7-.3.7T8 14Zm8 0q-.4 0-.7-.3T15 13t.3-.7.7-.3.7.3.3.7-.3.7-.7.3Z',
  list: 'M3 17v-2h2v2H3Zm0-4v-2h2v2H3Zm0-4V7h2v2H3Zm4 8v-2h14v2H7Zm0-4v-2h14v2H7Zm0-4V7h14v2H7Z',
  person: 'M12 12q-1.7 0-2.8-1.2T8 8t1.2-2.8T12 4t2.8 1.2T16 8t-1.2 2.8T12 12Zm-8 8v-2.8q0-.9.4-1.6t1.2-1.1q1.6-.8 3.2-1.2T12 13t3.3.4 3.2 1.2q.7.4 1.1 1.1t.4 1.6V20H4Z',
  camera:
    'M12 17.5q1.9 0 3.2-1.3t1.3-3.2-1.3-3.2T12 8.5t-3.2 1.3T7.5 13t1.3 3.2 3.2 1.3ZM4 21q-.8 0-1.4-.6T2 19V7q0-.8.6-1.4T4 5h3.2L9 3h6l1.9 2H20q.8 0 1.4.6T22 7v12q0 .8-.6 1.4T20 21H4Z',
  qr: 'M3 11V3h8v8H3Zm2-2h4V5H5v4ZM3 21v-8h8v8H3Zm2-2h4v-4H5v4Zm8-8V3h8v8h-8Zm2-2h4V5h-4v4Zm4 12v-2h2v2h-2Zm-6-6v-2h2v2h-2Zm2 2v-2h2v2h-2Zm-2 2v-2h2v2h-2Zm2 2v-2h2v2h-2Zm2-2v-2h2v2h-2Zm0-4v-2h2v2h-2Zm2 2v-2h2v2h-2Z',
  card: 'M14 13h5v-2h-5v2Zm0-3h5V8h-5v2Zm-9 6h8v-.6q0-1.1-1.1-1.8T9 13t-2.9.6T5 15.4v.6Zm4-4q.8 0 1.4-.6T11 10t-.6-1.4T9 8t-1.4.6T7 10t.6 1.4T9 12Zm-5 8q-.8 0-1.4-.6T2 18V6q0-.8.6-1.4T4 4h16q.8 0 1.4.6T22 6v12q0 .8-.6 1.4T20 20H4Z',
  back: 'm7.8 13 5.6 5.6L12 20l-8-8 8-8 1.4 1.4L7.8 11H20v2H7.8Z',
  check: 'm9.5 18-5.7-5.7 1.4-1.4 4.3 4.3 9.2-9.2 1.4 1.4L9.5 18Z',
  close: 'M6.4 19 5 17.6l5.6-5.6L5 6.4 6.4 5l5.6 5.6L17.6 5 19 6.4 13.4 12l5.6 5.6-1.4 1.4-5.6-5.6L6.4 19Z',
  copy: 'M9 18q-.8 0-1.4-.6T7 16V4q0-.8.6-1.4T9 2h9q.8 0 1.4.6T20 4v12q0 .8-.6 1.4T18 18H9Zm0-2h9V4H9v12Zm-4 6q-.8 0-1.4-.6T3 20V6h2v14h11v2H5Z',
  send: 'M3 20V4l19 8-19 8Zm2-3 11.9-5L5 7v3.5l6 1.5-6 1.5V17Z',
  refresh:
    'M12 20q-3.4 0-5.7-2.3T4 12t2.3-5.7T12 4q1.7 0 3.3.7T18 6.7V4h2v7h-7V9h4.2q-.8-1.4-2.2-2.2T12 6Q9.5 6 7.8 7.8T6 12t1.8 4.3T12 18q1.9 0 3.5-1.1t2.2-2.9h2.1q-.7 2.7-2.8 4.3T12 20Z',
  trash: 'M7 21q-.8 0-1.4-.6T5 19V6H4V4h5V3h6v1h5v2h-1v13q0 .8-.6 1.4T17 21H7Zm2-4h2V8H9v9Zm4 0h2V8h-2v9Z',
  handoff:
    'M16 21l-1.4-1.4 1.6-1.6H12v-2h4.2l-1.6-1.6L16 13l4 4-4 4ZM4 20v-2.8q0-.8.4-1.6t1.2-1.1q1.3-.7 2.7-1.1T11 13q.6 0 1.1.1t1 .1q-.6.6-.9 1.3T12 16v4H4Zm7-8q-1.7 0-2.8-1.2T7 8t1.2-2.8T11 4t2.8 1.2T15 8t-1.2 2.8T11 12Z',
  mic: 'M12 14q-1.3 0-2.1-.9T9 11V5q0-1.3.9-2.1T12 2t2.1.9T15 5v6q0 1.3-.9 2.1T12 14Zm-1 7v-3.1q-2.6-.4-4.3-2.3T5 11h2q0 2.1 1.5 3.5T12 16t3.5-1.5T17 11h2q0 2.7-1.7 4.6T13 17.9V21h-2Z',
  stop: 'M6 18V6h12v12H6Z',
} as const;

export type IconName = keyof typeof PATHS;

export function Icon({ name, className }: { name: IconName; className?: string }) {
  return (
    <svg className={`cap-icon ${className ?? ''}`} viewBox="0 0 24 24" width="24" height="24" aria-hidden="true" focusable="false">
      <path d={PATHS[name]} fill="currentColor" />
    </svg>
  );
}
