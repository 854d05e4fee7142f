import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { PublicFormApp } from './PublicFormApp';

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <PublicFormApp pathname={location.pathname} search={location.search} />
  </StrictMode>,
);
