import type { ButtonHTMLAttributes, ReactNode } from 'react';
import { alpha, styled, type Theme } from '@mui/material/styles';

/**
 * Buttons and notices for the public pages, styled from the MUI theme. MUI's Button (ripple, transitions, its own
 * spinner) and Alert (icon button, icons) would cost the sign-in page about 15 KB of gzipped JavaScript, more than
 * its budget allows (README: build figures); these look the same and stay accessible.
 */
type Look = { variant?: 'contained' | 'text'; fullWidth?: boolean; size?: 'small' | 'medium' | 'large' };
const forward = { shouldForwardProp: (p: string) => p !== 'variant' && p !== 'fullWidth' && p !== 'size' };

const buttonStyles = ({ theme, variant = 'contained', fullWidth, size = 'medium' }: Look & { theme: Theme }) => ({
  display: 'inline-flex',
  alignItems: 'center',
  justifyContent: 'center',
  boxSizing: 'border-box' as const,
  gap: 8,
  width: fullWidth ? '100%' : undefined,
  minHeight: size === 'large' ? 46 : size === 'small' ? 30 : 38,
  padding: size === 'small' ? '4px 10px' : '8px 18px',
  border: 0,
  borderRadius: theme.shape.borderRadius,
  font: 'inherit',
  fontSize: size === 'small' ? '0.8125rem' : size === 'large' ? '0.95rem' : '0.875rem',
  fontWeight: 600,
  lineHeight: 1.5,
  cursor: 'pointer',
  textDecoration: 'none',
  transition: theme.transitions.create(['background-color', 'box-shadow', 'color'], { duration: theme.transitions.duration.short }),
  ...(variant === 'contained'
    ? {
        color: theme.palette.primary.contrastText,
        backgroundColor: theme.palette.primary.main,
        '&:hover': { backgroundColor: theme.palette.primary.dark },
      }
    : {
        color: theme.palette.primary.main,
        backgroundColor: 'transparent',
        '&:hover': { backgroundColor: alpha(theme.palette.primary.main, 0.08) },
      }),
  '&:focus-visible': { outline: `2px solid ${theme.palette.primary.main}`, outlineOffset: 2 },
  '&:disabled': {
    cursor: 'default',
    color: theme.palette.action.disabled,
    backgroundColor: variant === 'contained' ? theme.palette.action.disabledBackground : 'transparent',
  },
});

const BaseButton = styled('button', forward)<Look>(buttonStyles);

export function PlainButton({
  variant,
  fullWidth,
  size,
  startIcon,
  children,
  ...rest
}: ButtonHTMLAttributes<HTMLButtonElement> & { variant?: 'contained' | 'text'; fullWidth?: boolean; size?: 'small' | 'medium' | 'large'; startIcon?: ReactNode }) {
  return (
    <BaseButton type="button" variant={variant} fullWidth={fullWidth} size={size} {...rest}>
      {startIcon}
      {children}
    </BaseButton>
  );
}

/** An anchor that looks like a button (for links to another page). */
export const LinkButton = styled('a', forward)<Look>(buttonStyles);

const ICONS = { success: '✓', info: 'i', warning: '!', error: '!' } as const;

const NoticeBox = styled('div')<{ severity: keyof typeof ICONS }>(({ theme, severity }) => ({
  display: 'flex',
  gap: 12,
  alignItems: 'flex-start',
  padding: '10px 14px',
  borderRadius: theme.shape.borderRadius,
  border: `1px solid ${alpha(theme.palette[severity].main, 0.5)}`,
  backgroundColor: alpha(theme.palette[severity].main, theme.palette.mode === 'dark' ? 0.16 : 0.08),
  color: theme.palette.text.primary,
  fontSize: '0.875rem',
  lineHeight: 1.5,
  '& .ls-notice-icon': {
    flex: '0 0 auto',
    width: 22,
    height: 22,
    marginTop: 1,
    borderRadius: '50%',
    display: 'inline-flex',
    alignItems: 'center',
    justifyContent: 'center',
    fontSize: 13,
    fontWeight: 700,
    color: theme.palette[severity].contrastText,
    backgroundColor: theme.palette[severity].main,
    // A pseudo-element: decoration only, not part of the notice's text.
    '&::before': { content: `"${ICONS[severity]}"` },
  },
  '& .ls-notice-title': { fontWeight: 600, marginBottom: 2 },
  '& .ls-notice-body': { flex: 1, minWidth: 0, overflowWrap: 'anywhere' },
}));

/** An alert-like notice: severity colour, a title (optional), text, and an optional action on the right. */
export function Notice({
  severity,
  title,
  action,
  children,
  role,
  ...rest
}: {
  severity: keyof typeof ICONS;
  title?: ReactNode;
  action?: ReactNode;
  children?: ReactNode;
  role?: string;
  'data-testid'?: string;
  style?: React.CSSProperties;
}) {
  return (
    <NoticeBox severity={severity} role={role ?? (severity === 'error' ? 'alert' : 'status')} {...rest}>
      <span className="ls-notice-icon" aria-hidden />
      <div className="ls-notice-body">
        {title && <div className="ls-notice-title">{title}</div>}
        {children}
      </div>
      {action}
    </NoticeBox>
  );
}

/** A text link in the theme's primary colour. */
export const TextLink = styled('a')(({ theme }) => ({
  color: theme.palette.primary.main,
  fontWeight: 500,
  textDecoration: 'underline',
  textUnderlineOffset: 2,
  '&:hover': { textDecorationThickness: 2 },
}));
