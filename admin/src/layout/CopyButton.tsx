import { useEffect, useRef, useState } from 'react';
import Button from '@mui/material/Button';
import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import CheckIcon from '@mui/icons-material/Check';
import { useTranslate } from 'react-admin';

/** Spec 9: a copy button shows "copied" for 2 seconds. */
export const COPIED_MS = 2000;

export async function copyText(text: string): Promise<void> {
  if (navigator.clipboard?.writeText) {
    try {
      await navigator.clipboard.writeText(text);
      return;
    } catch {
      /* fall back below (no permission, insecure origin) */
    }
  }
  const area = document.createElement('textarea');
  area.value = text;
  area.setAttribute('readonly', '');
  area.style.position = 'fixed';
  area.style.opacity = '0';
  document.body.appendChild(area);
  area.select();
  document.execCommand('copy');
  area.remove();
}

export function CopyButton({ value, label }: { value: string; label?: string }) {
  const translate = useTranslate();
  const [copied, setCopied] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  const copy = async () => {
    await copyText(value);
    setCopied(true);
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setCopied(false), COPIED_MS);
  };
  return (
    <Button
      size="small"
      variant="text"
      onClick={copy}
      startIcon={copied ? <CheckIcon fontSize="small" /> : <ContentCopyIcon fontSize="small" />}
      aria-label={label ? `${translate('ls.common.copy')} ${label}` : translate('ls.common.copy')}
      aria-live="polite"
      data-testid="copy-button"
    >
      {copied ? translate('ls.common.copied') : translate('ls.common.copy')}
    </Button>
  );
}

/** A small line "Id 1234… [Copy]" for edit pages. */
export function CopyableId({ value, label = 'Id' }: { value: string; label?: string }) {
  return (
    <span style={{ display: 'inline-flex', alignItems: 'center', gap: 4, fontSize: 13, opacity: 0.85, flexWrap: 'wrap' }}>
      <span>{label}</span>
      <code style={{ fontSize: 12, wordBreak: 'break-all' }}>{value}</code>
      <CopyButton value={value} label={label} />
    </span>
  );
}
