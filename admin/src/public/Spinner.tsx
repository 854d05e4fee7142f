/** A small CSS spinner for busy buttons (MUI's CircularProgress weighs more than the sign-in page can carry). */
export function Spinner({ size = 18 }: { size?: number }) {
  return (
    <span
      role="progressbar"
      aria-label="Loading"
      style={{
        display: 'inline-block',
        width: size,
        height: size,
        borderRadius: '50%',
        border: '2px solid currentColor',
        borderRightColor: 'transparent',
        animation: 'ls-spin 0.8s linear infinite',
      }}
    />
  );
}
