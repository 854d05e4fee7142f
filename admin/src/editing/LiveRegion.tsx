/** The visually hidden polite region where an editor says what just happened (the text comes from useAnnouncer). */
export function LiveRegion({ className, testId, text }: { className: string; testId: string; text: string }) {
  return (
    <div className={className} aria-live="polite" aria-atomic="true" data-testid={testId}>
      {text}
    </div>
  );
}
