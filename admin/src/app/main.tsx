import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { CaptureApp } from './CaptureApp';
import './app.css';

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <CaptureApp />
  </StrictMode>,
);

// The service worker (a production build only: it precaches that build's files) keeps the app working offline.
if (import.meta.env.PROD && 'serviceWorker' in navigator) {
  window.addEventListener('load', () => {
    navigator.serviceWorker.register('/app/sw.js', { scope: '/app/' }).catch(() => undefined);
  });
}
