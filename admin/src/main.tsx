import { createRoot } from 'react-dom/client';

// Placeholder until the admin issue lands: the API is complete at /api/1.
createRoot(document.getElementById('root')!).render(
  <main style={{ fontFamily: 'sans-serif', padding: '2rem' }}>
    <h1>Leadstage</h1>
    <p>The admin console is being built. The API answers at /api/1.</p>
  </main>,
);
