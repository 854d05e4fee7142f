/** Leadstage's mark: a stage with a rising lead. Inline SVG, no request. */
export function BrandMark({ size = 28 }: { size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 32 32" aria-hidden focusable="false">
      <rect width="32" height="32" rx="8" fill="#2848c7" />
      <path d="M7 23h18" stroke="#fff" strokeWidth="2.5" strokeLinecap="round" />
      <path d="M9 19l5-5 4 3 6-7" fill="none" stroke="#7ef0d9" strokeWidth="2.5" strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
}
